/**
 * Diff and plan time and memory on a large account: 100k objects by default
 * (20k rules, 80k IP values), half unchanged, a quarter to create, a quarter
 * to delete. `planMs` is what a plan costs in the pure core (buildPlan runs the
 * diff and orders the changes); `checksumMs` what a JSON, markdown or saved
 * plan adds to it (the document, its checksum and both digests, which the plan
 * computes when first read); `diffMs` is its first step, timed apart. Not a test: `tsc -p tsconfig.bench.json &&
 * node --expose-gc dist-bench/bench/diff.js`.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { NEVER_EXPIRES, type DesiredIpEntry, type LiveIpEntry } from '../src/model/ip.js';
import type { DesiredRule, LiveRule, Rule } from '../src/model/rule.js';
import type { DesiredState, LiveState } from '../src/model/state.js';
import { diff } from '../src/plan/diff.js';
import { buildPlan } from '../src/plan/plan.js';
import { renderJson } from '../src/plan/render/json.js';
import { encodePlan } from '../src/plan/codec.js';

export interface BenchFigures {
  readonly objects: number;
  readonly rules: number;
  readonly ipValues: number;
  /** `diff` alone, on fresh inputs: the first step of `planMs`, shown for where the time goes. */
  readonly diffMs: number;
  /** `buildPlan` on fresh inputs: what `rampart plan` runs after loading and reading (the diff included). */
  readonly planMs: number;
  /** The plan document (the codec), its checksum and both digests: what a JSON, markdown or saved plan adds; the text plan pays none of it. */
  readonly checksumMs: number;
  readonly renderJsonMs: number;
  /**
   * The floor of diff + plan + checksum on the same inputs (`diffFloor`): what
   * any tool comparing the two states pays, however it is written.
   */
  readonly floorMs: number;
  readonly planJsonBytes: number;
  readonly changes: number;
  readonly apiCalls: number;
  /** Heap held after planning, above the inputs (MB). */
  readonly heapUsedDeltaMb: number;
  readonly heapUsedMb: number;
  readonly rssMb: number;
  /** Peak resident set size of the process so far (MB). */
  readonly maxRssMb: number;
}

const CLIENT = 10042;
const OWNER = 'rampart';

function rule(i: number): Rule {
  return {
    client: CLIENT,
    kind: 'regex',
    fields: { regex: `.*bench-${i}.*`, attack: 'scanner', experimental: false },
    conditions: [
      { point: ['instance'], type: 'equal', value: String(1 + (i % 50)) },
      { point: ['path', 0], type: 'equal', value: `p${i}` },
    ],
    point: [['header', 'USER-AGENT']],
    comment: `rule ${i}`,
  };
}

function ipValue(i: number): Omit<DesiredIpEntry, 'source'> {
  // Even values: subnets; odd: countries spread over pools (grouped creates).
  if (i % 2 === 0) {
    const n = i / 2;
    return {
      client: CLIENT, list: 'black', ruleType: 'ip_range',
      value: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}/32`,
      pools: [1 + (n % 20)], expiresAt: NEVER_EXPIRES, reason: 'bench',
    };
  }
  const n = (i - 1) / 2;
  const code = String.fromCharCode(65 + (n % 26), 65 + (Math.floor(n / 26) % 26));
  return {
    client: CLIENT, list: 'black', ruleType: 'country',
    value: code, pools: [1 + Math.floor(n / 676)], expiresAt: NEVER_EXPIRES, reason: 'bench',
  };
}

/*
 * Each object is one literal, as the policy and live readers make them. A
 * spread first (`{ ...r, id }`) gives every object a hidden class of its own
 * in V8 11 (Node 20): every property read in the diff and the plan then goes
 * megamorphic, and the bench measured its own inputs more than the plan.
 * Key order as the spreads had it, so plans are byte for byte the same.
 */
function desiredRule(r: Rule, source: DesiredRule['source']): DesiredRule {
  return { client: r.client, kind: r.kind, fields: r.fields, conditions: r.conditions, point: r.point, comment: r.comment, source } as DesiredRule;
}

function liveRule(r: Rule, id: number): LiveRule {
  return { client: r.client, kind: r.kind, fields: r.fields, conditions: r.conditions, point: r.point, comment: r.comment, id, owner: OWNER } as LiveRule;
}

type BenchIp = ReturnType<typeof ipValue>;

function desiredIp(e: BenchIp, source: DesiredIpEntry['source']): DesiredIpEntry {
  return { client: e.client, list: e.list, ruleType: e.ruleType, value: e.value, pools: e.pools, expiresAt: e.expiresAt, reason: e.reason, source };
}

function liveIp(e: BenchIp, id: number, objectSize: number): LiveIpEntry {
  return {
    client: e.client, list: e.list, ruleType: e.ruleType, value: e.value, pools: e.pools, expiresAt: e.expiresAt, reason: e.reason, id, objectSize, owner: OWNER,
  };
}

/** Objects are split: a quarter only desired, half both, a quarter only live. */
export function benchInputs(objects = 100_000): { desired: DesiredState; live: LiveState } {
  const ruleCount = Math.round(objects / 5);
  const ipCount = objects - ruleCount;
  const desiredRules: DesiredRule[] = [];
  const liveRules: LiveRule[] = [];
  for (let i = 0; i < ruleCount; i++) {
    const r = rule(i);
    const q = i % 4;
    if (q !== 3) desiredRules.push(desiredRule(r, { file: `policies/f${i % 100}.yaml`, line: i, col: 5, name: `r${i}` }));
    if (q !== 0) liveRules.push(liveRule(r, i + 1));
  }
  const desiredIps: DesiredIpEntry[] = [];
  const liveIps: LiveIpEntry[] = [];
  for (let i = 0; i < ipCount; i++) {
    const e = ipValue(i);
    const q = Math.floor(i / 2) % 4;
    if (q !== 3) desiredIps.push(desiredIp(e, { file: `policies/f${i % 100}.yaml`, line: i, col: 5, name: 'ip_lists.deny[0]' }));
    // Live countries come grouped two per object, subnets one per object.
    if (q !== 0) liveIps.push(liveIp(e, 1_000_000 + (e.ruleType === 'country' ? Math.floor(i / 4) * 4 : i), e.ruleType === 'country' ? 2 : 1));
  }
  return {
    desired: { clients: [CLIENT], rules: desiredRules, ipEntries: desiredIps },
    live: { clients: [CLIENT], rules: liveRules, ipEntries: liveIps },
  };
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** The diff alone, on inputs of its own: keys cached on the objects by one run must not speed up the other. */
function timeDiff(objects: number): { diffMs: number; changes: number } {
  const { desired, live } = benchInputs(objects);
  collect();
  const t = performance.now();
  const result = diff(desired, live);
  return { diffMs: performance.now() - t, changes: result.changes.length };
}

/**
 * The cheapest honest diff + plan + checksum: each object keyed by the JSON of
 * what identifies it, one map join of the two sides, every change (the
 * object itself, create or delete) serialized to JSON and that text hashed
 * with SHA-256. No grouping, no order, no updates in place, no safety checks:
 * the work no diff can skip. Timed on inputs of its own.
 */
function diffFloor(objects: number): number {
  const { desired, live } = benchInputs(objects);
  collect();
  const t = performance.now();
  const ruleId = (r: Rule): string => JSON.stringify([r.client, r.kind, r.conditions, r.point, r.fields]);
  const ipId = (e: Omit<DesiredIpEntry, 'source'>): string => JSON.stringify([e.client, e.list, e.ruleType, e.value, e.pools]);
  const wanted = new Map<string, unknown>();
  for (const rule of desired.rules) wanted.set(ruleId(rule), rule);
  for (const entry of desired.ipEntries) wanted.set(ipId(entry), entry);
  const changes: unknown[] = [];
  const join = (key: string, object: unknown): void => {
    if (!wanted.delete(key)) changes.push({ action: 'delete', object });
  };
  for (const rule of live.rules) join(ruleId(rule), rule);
  for (const entry of live.ipEntries) join(ipId(entry), entry);
  for (const object of wanted.values()) changes.push({ action: 'create', object });
  const checksum = createHash('sha256').update(JSON.stringify(changes)).digest('hex');
  const ms = performance.now() - t;
  if (checksum.length !== 64) throw new Error('the diff floor hashed nothing');
  return ms;
}

export function benchDiff(objects = 100_000): BenchFigures {
  const floorMs = diffFloor(objects);
  const { diffMs, changes } = timeDiff(objects);
  const { desired, live } = benchInputs(objects);
  collect();
  const before = process.memoryUsage().heapUsed;

  let t = performance.now();
  const plan = buildPlan(desired, live);
  const planMs = performance.now() - t;
  const mem = process.memoryUsage();

  // Each figure its own garbage: collections caused by one step are not charged to the next.
  collect();
  t = performance.now();
  // The document (the codec), its checksum and the digests: what a saved or JSON plan costs beyond planning.
  const document = encodePlan(plan);
  const checksum = document.checksum + document.desired_digest + document.live_digest;
  const checksumMs = performance.now() - t;

  collect();
  t = performance.now();
  const json = renderJson(document);
  const renderJsonMs = performance.now() - t;

  return {
    objects,
    rules: Math.round(objects / 5),
    ipValues: objects - Math.round(objects / 5),
    diffMs: Math.round(diffMs),
    planMs: Math.round(planMs),
    checksumMs: checksum.length > 0 ? Math.round(checksumMs) : 0,
    renderJsonMs: Math.round(renderJsonMs),
    floorMs: Math.round(floorMs),
    planJsonBytes: Buffer.byteLength(json),
    changes,
    apiCalls: plan.apiCalls,
    heapUsedDeltaMb: mb(mem.heapUsed - before),
    heapUsedMb: mb(mem.heapUsed),
    rssMb: mb(mem.rss),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(benchDiff(Number(process.argv[2] ?? 100_000)), null, 2));
}
