/**
 * Builders for the impact's unit tests: policies as the account would hold
 * them once applied, hits as the listing gives them, and each change's impact
 * by a short label (`update mode mode`, `create regex scan`, `create black`).
 */
import type { ListedHit } from '../../src/hits/read.js';
import { evaluateChanges, type ImpactInput } from '../../src/impact/evaluate.js';
import { RequestIndex } from '../../src/impact/requests.js';
import type { Change } from '../../src/model/change.js';
import { plainIpEntry, type LiveIpEntry } from '../../src/model/ip.js';
import type { DesiredRule, LiveRule } from '../../src/model/rule.js';
import type { DesiredState, LiveState } from '../../src/model/state.js';
import type { Impact } from '../../src/plan/model.js';
import { buildPlan } from '../../src/plan/plan.js';
import { loadPolicyTexts } from '../../src/policy/validate.js';

export const CLIENT = 10042;

export function desired(body: string): DesiredState {
  const loaded = loadPolicyTexts([{ file: 'policies/test.yaml', text: `version: 1\nclient: ${CLIENT}\napplication: 7\n${body}` }]);
  if (!loaded.desired) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.desired;
}

/** The account as if `body` had been applied by Rampart. */
export function liveOf(body: string): LiveState {
  const state = desired(body);
  const rules = state.rules.map((rule, i): LiveRule => {
    const { source: _source, ...plain } = rule as DesiredRule & Record<string, unknown>;
    return { ...plain, id: 100 + i, owner: 'rampart', name: rule.source.name } as LiveRule;
  });
  const ipEntries = state.ipEntries.map((entry, i): LiveIpEntry => ({ ...plainIpEntry(entry), id: 500 + i, objectSize: 1, owner: 'rampart' }));
  return { clients: [CLIENT], rules, ipEntries };
}

let serial = 0;
/** One request of one hit, as the listing gives it: a SQL injection in `q` on the shop, let through, unless the fields say otherwise. */
export function hit(fields: Partial<Record<keyof ListedHit, unknown>> = {}): ListedHit {
  serial++;
  return {
    id: ['i', `h${serial}`], request_id: `r${serial}`, attackid: ['i', 'a'], type: 'sqli', stamps: [7730],
    point: ['get', 'q'], poolid: 7, domain: 'shop.example.com', path: '/api/search', time: 1_800_000_000,
    ip: '192.0.2.1', block_status: 'monitored', ...fields,
  } as ListedHit;
}

export const indexOf = (hits: readonly ListedHit[]) => RequestIndex.of(CLIENT, hits, { values: true });

export function impactsOf(
  before: string, after: string, hits: readonly ListedHit[], experimental: readonly ListedHit[] = [], options: Pick<ImpactInput, 'signal'> = {},
): Map<string, Impact> {
  const live = liveOf(before);
  const plan = buildPlan(desired(after), live);
  const impacts = evaluateChanges({ changes: plan.changes, live, seen: indexOf(hits), experimental: indexOf(experimental), ...options });
  return new Map([...impacts].map(([change, impact]) => [label(change), impact]));
}

export function label(change: Change): string {
  if (change.kind === 'ip') return `${change.action} ${change.action === 'delete' ? 'ip' : change.list}`;
  return `${change.action} ${change.rule.kind}${'source' in change.rule ? ` ${change.rule.source.name}` : ''}`;
}
