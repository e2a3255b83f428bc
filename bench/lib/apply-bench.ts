/**
 * Apply at a given per-call latency: `creates` new objects and `deletes` owned
 * objects no longer declared, run through the real prepare + applyPlan (bounded
 * concurrency, settle polling included). Rules: one call per create and per
 * delete. IP values: one call per create, the deletes batched into one call per
 * client and list (the service's delete names its list).
 */
import { ApiClient } from '../../src/api/client.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, ServiceApi } from '../../src/api/service.js';
import { minimumListingCalls } from '../../src/live/paging.js';
import { RULE_DELETE_BATCH } from '../../src/plan/classes/rules.js';
import { IP_LISTS } from '../../src/model/ip.js';
import { deletedIdsByList } from '../../src/model/ip-change.js';
import { applyPlan } from '../../src/apply/apply.js';
import { loadPolicies } from '../../src/policy/index.js';
import { loadDesired, prepare } from '../../src/reconcile/prepare.js';
import { BENCH_TOKEN, type BenchEmulator } from './emulator-process.js';
import { hintSeed, ipSeed, writeScalePolicies } from './scale.js';
import { runSettings } from '../../src/reconcile/settings.js';
import { planClassOf } from '../../src/plan/classes/index.js';

const OWNER = 'rampart';
const CONCURRENCY = 8;

export interface ApplyFigures {
  readonly kind: 'rules' | 'ip';
  readonly creates: number;
  readonly deletes: number;
  readonly latencyMs: number;
  readonly concurrency: number;
  /** prepare + apply + settle, wall. */
  readonly wallMs: number;
  readonly planMs: number;
  readonly applyMs: number;
  readonly calls: number;
  readonly writeCalls: number;
  readonly listingCalls: number;
  /** The writes, the plan's full read, and one read of each touched listing to see the writes settle. */
  readonly minimumCalls: number;
  readonly planReadCalls: number;
  readonly settleMinimumCalls: number;
  readonly minimumWriteCalls: number;
  /** Sum of the emulator's call durations / wall time of the apply. */
  readonly effectiveConcurrency: number;
  readonly cpuMs: number;
  readonly failed: number;
}

export async function benchApply(
  emulator: BenchEmulator,
  options: { kind: 'rules' | 'ip'; count: number; latencyMs: number; policies: string },
): Promise<ApplyFigures> {
  const { kind, count, latencyMs, policies } = options;
  await emulator.reset();
  // Seed what an older version of the policies declared (numbers from 1,000,000 on): all of it is now to delete.
  const old = await declared(policies, kind === 'rules' ? { rules: count, ipValues: 0, offset: 1_000_000 } : { rules: 0, ipValues: count, offset: 1_000_000 });
  if (kind === 'rules') await emulator.seedHints(old.rules.map((r) => hintSeed(r, OWNER)));
  else await emulator.seedIpObjects(old.ipEntries.map((e) => ipSeed(e, OWNER)));
  const desired = await declared(policies, kind === 'rules' ? { rules: count, ipValues: 0 } : { rules: 0, ipValues: count });
  // Settle reads each touched listing once it shows the writes: its size after the apply. A client's rules are
  // its hint listing and its credential-stuffing configs (one call). The copy check reuses that last read.
  let settleMinimum = 0;
  for (const client of desired.clients) {
    if (kind === 'rules') settleMinimum += minimumListingCalls(desired.rules.filter((r) => r.client === client).length, HINT_PAGE_LIMIT) + 1;
    else for (const list of IP_LISTS) settleMinimum += minimumListingCalls(desired.ipEntries.filter((e) => e.client === client && e.list === list).length, IP_RULE_PAGE_LIMIT);
  }

  await emulator.setConfig({ latencyMs });
  await emulator.resetCalls();
  const http = new ApiClient({ baseUrl: emulator.url, credentials: { token: BENCH_TOKEN }, connections: CONCURRENCY });
  const api = new ServiceApi(http);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    // More than 30% deletions of what we own: the guard is the command's job, not measured here.
    const { plan } = await prepare({ policies, policy: await loadDesired({ policies }), api, settings: runSettings({ owner: OWNER }) });
    const planned = performance.now();
    const readCalls = http.totalCalls;
    const report = await applyPlan(plan, { api, concurrency: CONCURRENCY });
    const ended = performance.now();
    const used = process.cpuUsage(cpu);
    const { calls } = await emulator.calls();
    const applyCalls = calls.slice(readCalls);
    const busyMs = applyCalls.reduce((sum, call) => sum + call.durationMs, 0);
    const counts = [...http.callCounts];
    const writes = counts.filter(([route]) => !LISTING_ROUTES.has(route)).reduce((n, [, c]) => n + c, 0);
    // One create per object; deletes go in one call per client (rules: up to RULE_DELETE_BATCH ids a call), IP deletes one per list.
    const deletesByClient = new Map<number, number>();
    let ipDeleteCalls = 0;
    for (const c of plan.changes) {
      if (c.action !== 'delete') continue;
      if (c.kind === 'ip') ipDeleteCalls += deletedIdsByList(c).size;
      else {
        const client = planClassOf(c).client(c);
        deletesByClient.set(client, (deletesByClient.get(client) ?? 0) + 1);
      }
    }
    const deleteCalls = ipDeleteCalls + [...deletesByClient.values()].reduce((n, d) => n + Math.ceil(d / RULE_DELETE_BATCH), 0);
    const minimumWriteCalls = count + deleteCalls;
    return {
      kind,
      creates: plan.summary.create,
      deletes: plan.summary.delete,
      latencyMs,
      concurrency: CONCURRENCY,
      wallMs: Math.round(ended - started),
      planMs: Math.round(planned - started),
      applyMs: Math.round(ended - planned),
      calls: http.totalCalls,
      writeCalls: writes,
      listingCalls: http.totalCalls - writes,
      minimumCalls: minimumWriteCalls + readCalls + settleMinimum,
      planReadCalls: readCalls,
      settleMinimumCalls: settleMinimum,
      minimumWriteCalls,
      effectiveConcurrency: Math.round((busyMs / (ended - planned)) * 10) / 10,
      cpuMs: Math.round((used.user + used.system) / 1000),
      failed: report.failed,
    };
  } finally {
    await http.close();
    await emulator.setConfig({ latencyMs: 0 });
  }
}

/** The calls that read (the hint and application listings are POSTs); every other call writes. */
const LISTING_ROUTES: ReadonlySet<string> = new Set(['POST /v1/objects/hint', 'GET /v4/ip_rules', 'GET /v4/clients/{clientid}/credential_stuffing/configs', 'POST /v1/objects/pool']);

async function declared(dir: string, spec: Parameters<typeof writeScalePolicies>[1]) {
  await writeScalePolicies(dir, spec);
  const loaded = await loadPolicies(dir);
  if (!loaded.desired) throw new Error('generated policies are invalid');
  return loaded.desired;
}
