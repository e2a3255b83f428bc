/**
 * An account at scale, both ways round: policy files declaring `rules` rules and
 * `ipValues` IP-list values over a few clients, and the emulator seeds that are
 * exactly what `rampart apply` would have written for them (with our owner
 * mark), so a plan against them is a no-op.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HintSeed, IpObjectSeed } from '../../src/emulator/index.js';
import type { DesiredIpEntry } from '../../src/model/ip.js';
import { hintCreateRequest } from '../../src/apply/classes/rule-requests.js';
import { ipFingerprint } from '../../src/model/ip-fingerprint.js';
import { withOwnerMark } from '../../src/model/ownership.js';
import type { DesiredRule } from '../../src/model/rule.js';

export const SCALE_CLIENTS = [30001, 30002] as const;

/**
 * The applications each scale account has: file `f` names application
 * `f + 1`, and Rampart refuses one its account lacks. Seeded into the bench's
 * emulator (again after each reset).
 */
export function scaleApplicationSeeds(count = 100): { clientid: number; id: number; name: string }[] {
  return SCALE_CLIENTS.flatMap((clientid) => Array.from({ length: count }, (_, i) => ({ clientid, id: i + 1, name: `bench ${i + 1}` })));
}
/** Values per IP entry in a file (one `ips: [...]` list). */
const ENTRY_SIZE = 100;

export interface ScaleSpec {
  readonly rules: number;
  readonly ipValues: number;
  readonly files?: number;
  /** Numbers rules and addresses from here, so two generations do not collide. */
  readonly offset?: number;
  /** Which rules: a mix of vpatch, regex and mode (the default), or one kind (bench/kinds.ts compares two). */
  readonly ruleKinds?: 'mixed' | 'vpatch' | 'abuse-control';
}

function address(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** A brute-force control with every nested value: threshold, reaction, enumerated parameters. */
function controlYaml(i: number): string {
  return `  - name: brute-${i}\n    type: brute\n    mode: block\n    threshold: { count: 20, period: 60 }\n    reaction: { block_by_ip: 1h }\n` +
    '    enumerated_parameters:\n      mode: exact\n      points: [{ point: [[post], [json_doc], [hash, password]], sensitive: true }]\n' +
    `    when:\n      - { point: [path, 0], equal: "p${i}" }\n`;
}

function ruleYaml(i: number, kinds: ScaleSpec['ruleKinds'] = 'mixed'): string {
  if (kinds === 'abuse-control') return controlYaml(i);
  const kind = kinds === 'vpatch' ? 0 : i % 3;
  if (kind === 0) {
    return `  - name: vpatch-${i}\n    type: vpatch\n    attack: any\n    point: [[header, HOST]]\n    when:\n      - { point: [path, 0], equal: "p${i}" }\n`;
  }
  if (kind === 1) {
    return `  - name: regex-${i}\n    type: regex\n    regex: ".*bench-${i}.*"\n    attack: scanner\n    point: [[header, USER-AGENT]]\n    comment: generated\n    when:\n      - { point: [uri], equal: "/u${i}" }\n`;
  }
  return `  - name: mode-${i}\n    type: mode\n    mode: block\n    when:\n      - { point: [path, 0], equal: "m${i}" }\n`;
}

/** Spreads `total` over `parts` as evenly as integers allow. */
function share(total: number, parts: number, index: number): number {
  return Math.floor((total * (index + 1)) / parts) - Math.floor((total * index) / parts);
}

/** Writes the policy files into `dir` (replacing what was there). */
export async function writeScalePolicies(dir: string, spec: ScaleSpec): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  const files = spec.files ?? 100;
  let rule = spec.offset ?? 0;
  let ip = spec.offset ?? 0;
  for (let f = 0; f < files; f++) {
    const client = SCALE_CLIENTS[f % SCALE_CLIENTS.length];
    const lines = [`version: 1\nclient: ${client}\napplication: ${f + 1}\ndescription: bench ${f}\n`];
    const ruleCount = share(spec.rules, files, f);
    lines.push(ruleCount > 0 ? 'rules:\n' : 'rules: []\n');
    for (let i = 0; i < ruleCount; i++) lines.push(ruleYaml(rule++, spec.ruleKinds));
    const values = share(spec.ipValues, files, f);
    if (values > 0) {
      // 70% deny, 20% allow, 10% gray.
      const perList = { deny: Math.round(values * 0.7), allow: Math.round(values * 0.2), gray: 0 };
      perList.gray = values - perList.deny - perList.allow;
      lines.push('ip_lists:\n');
      for (const [list, count] of Object.entries(perList)) {
        if (count === 0) continue;
        lines.push(`  ${list}:\n`);
        for (let done = 0; done < count; done += ENTRY_SIZE) {
          const chunk = Array.from({ length: Math.min(ENTRY_SIZE, count - done) }, () => address(ip++));
          lines.push(`    - ips: [${chunk.join(', ')}]\n      reason: bench\n`);
        }
      }
    }
    const sub = join(dir, `team-${f % 10}`);
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `app-${f + 1}.yaml`), lines.join(''));
  }
}

/** The stored form of a rule Rampart created (as the server normalizes it). */
export function hintSeed(rule: DesiredRule, owner: string): HintSeed {
  const { clientid, type, point, comment, action: _sent, validated: _v, variativity_disabled: _d, ...fields } = hintCreateRequest(rule, owner, rule.source.name);
  return {
    ...fields,
    clientid,
    type,
    action: rule.conditions.map((c) => ({ point: [...c.point], type: c.type, value: c.value })),
    point: (point ?? []).flat(),
    comment,
  };
}

/** One object per value, as `per-value` granularity stores it. */
export function ipSeed(entry: DesiredIpEntry, owner: string): IpObjectSeed {
  return {
    clientid: entry.client,
    list: entry.list,
    rule_type: entry.ruleType,
    values: [entry.value],
    pools: [...entry.pools],
    expired_at: entry.expiresAt,
    reason: withOwnerMark(entry.reason, { owner, fingerprint: ipFingerprint(entry) }),
    author: 'API',
  };
}
