import { describe, expect, it } from 'vitest';
import type { IpEntry, LiveIpEntry } from '../../../src/model/ip.js';
import { ruleContentKey, type LiveRule } from '../../../src/model/rule.js';
import type { DesiredState, LiveState } from '../../../src/model/state.js';
import { digestDesired, digestLive } from '../../../src/plan/digest.js';
import { desiredIp, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields, shuffled } from './builders.js';

/*
 * Saved plans carry both digests, and `apply --plan` compares them: their
 * value is a format (plan format 2). What counts as the same state is what
 * format 1 hashed: the multiset of one line per object below. The digests
 * must be equal exactly where those multisets are, and their hex is pinned:
 * a change of it needs a new PLAN_FORMAT_VERSION.
 */
const ipLine = (e: IpEntry): string => JSON.stringify([JSON.stringify([e.client, e.list, e.ruleType, e.value, e.pools]), e.expiresAt, e.reason ?? null]);
const multiset = (clients: readonly number[], groups: string[][]): string =>
  JSON.stringify([[...new Set(clients)].sort((a, b) => a - b), ...groups.map((lines) => [...lines].sort())]);
const sameDesired = (d: DesiredState): string => multiset(d.clients, [d.rules.map(ruleContentKey), d.ipEntries.map(ipLine)]);
const sameLive = (l: LiveState): string => multiset(l.clients, [
  l.rules.map((r) => JSON.stringify([r.id, r.owner ?? null, ruleContentKey(r)])),
  l.ipEntries.map((e) => JSON.stringify([e.id, e.objectSize, e.owner ?? null, ipLine(e)])),
]);

// Normalized values, and values and reasons no normalizer makes (quotes, backslashes, controls, non-ASCII).
const VALUES = ['10.0.0.0/8', '2001:db8::/32', 'DE', 'VPN', 'aws', 'a"b', 'c\\d', 'tab\there', 'é', '', 'x y'];
const REASONS = [undefined, '', 'why', 'say "no"', 'back\\slash', 'line\nbreak'];

describe('digest format', () => {
  const desiredEntries = VALUES.flatMap((value, i) => [
    desiredIp(value, { reason: REASONS[i % REASONS.length] as string, pools: i % 2 ? [1, 2] : [0] }, i + 1),
    desiredIp(value, { list: 'white', ruleType: 'country', expiresAt: 2_000_000_000 + i }, i + 1),
  ]);
  const liveEntries = VALUES.flatMap((value, i) => [
    ...liveObject(100 + i, [value], { reason: REASONS[(i + 1) % REASONS.length] as string }, i % 3 === 0 ? null : 'rampart'),
    ...liveObject(200 + i, [value, `${value}2`], { list: 'gray', pools: [3] }, i % 2 ? 'team "b"' : 'rampart'),
  ]);
  const desired = desiredState([desiredRule(ruleFields('regex')), desiredRule(ruleFields('vpatch', 'all'), 'v')], desiredEntries, [10042, 7, 10042]);
  const live = liveState([liveRule(ruleFields('mode'), 5), liveRule(ruleFields('regex', 3), 6, null)], liveEntries);

  it('is pinned (a new value is a new plan format)', () => {
    expect(digestDesired(desired)).toBe('752cebabf08b49c9e442d8c0e0e78730f51ef345a2634b34fc0ce5443c0013fb');
    expect(digestLive(live)).toBe('27d5978ff3691e2eafae41d276ccf668cef3a1cb43871f2edbaf859bbc17c21c');
  });

  /** The states around `live`: each object changed in one respect, removed, held twice; and reordered ones. */
  function liveVariants(): LiveState[] {
    const variants: LiveState[] = [live, { ...live, ipEntries: shuffled(live.ipEntries, 3) }, { ...live, rules: shuffled(live.rules, 5) }];
    const entries = live.ipEntries;
    entries.forEach((e, i) => {
      const at = (changed: LiveIpEntry[]) => variants.push({ ...live, ipEntries: [...entries.slice(0, i), ...changed, ...entries.slice(i + 1)] });
      at([]);
      at([e, e]);
      at([{ ...e, value: `${e.value}"` }]);
      at([{ ...e, id: e.id + 1 }]);
      at([{ ...e, objectSize: e.objectSize + 1 }]);
      at([{ ...e, owner: e.owner === undefined ? 'rampart' : undefined }]);
      at([{ ...e, reason: e.reason === undefined ? '' : undefined }]);
      at([{ ...e, pools: [...e.pools, 9] }]);
      at([{ ...e, expiresAt: e.expiresAt - 1 }]);
      at([{ ...e, list: e.list === 'gray' ? 'black' : 'gray' }]);
    });
    live.rules.forEach((r, i) => {
      const at = (changed: LiveRule[]) => variants.push({ ...live, rules: [...live.rules.slice(0, i), ...changed, ...live.rules.slice(i + 1)] });
      at([]);
      at([r, r]);
      at([{ ...r, id: r.id + 1 }]);
      at([{ ...r, owner: r.owner === undefined ? 'rampart' : undefined }]);
      at([{ ...r, comment: 'x' }]);
      at([{ ...r, comment: '' }]);
      at([{ ...r, client: r.client + 1 }]);
      at([{ ...r, point: [['header', 'X']] }]);
      at([{ ...r, conditions: r.conditions.slice(1) }]);
      at([{ ...r, fields: Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, typeof v === 'string' ? `${v}x` : v])) } as LiveRule]);
    });
    variants.push({ ...live, clients: [...live.clients, 5] }, { ...live, clients: [...live.clients, ...live.clients] });
    return variants;
  }

  it('are equal exactly where the multisets of objects are (live)', () => {
    // Each variant's digest and multiset once; then every pair.
    const seen = liveVariants().map((v) => ({ digest: digestLive(v), same: sameLive(v) }));
    seen.forEach((a, i) => {
      seen.forEach((b, j) => expect(a.digest === b.digest, `${i} ${j}`).toBe(a.same === b.same));
    });
  });

  it('are equal exactly where the multisets of objects are (desired)', () => {
    const [rule, ...rules] = desired.rules;
    const [entry, ...entries] = desired.ipEntries;
    if (!rule || !entry) throw new Error('the state has rules and entries');
    const variants: DesiredState[] = [
      desired,
      { ...desired, rules: [...rules, { ...rule, source: { ...rule.source, file: 'other.yaml', line: 99 } }] },
      { ...desired, ipEntries: [...shuffled(entries, 9), { ...entry, source: { ...entry.source, line: 1000 } }] },
      { ...desired, rules: [rule, rule, ...rules] },
      { ...desired, ipEntries: [entry, entry, ...entries] },
      { ...desired, ipEntries: entries },
      { ...desired, rules },
      { ...desired, rules: [{ ...rule, comment: 'x' }, ...rules] },
      { ...desired, ipEntries: [{ ...entry, reason: `${entry.reason ?? ''}.` }, ...entries] },
      { ...desired, clients: [7] },
    ];
    const seen = variants.map((v) => ({ digest: digestDesired(v), same: sameDesired(v) }));
    for (const a of seen) {
      for (const b of seen) expect(a.digest === b.digest).toBe(a.same === b.same);
    }
  });

  it('name the clients, even of an empty state', () => {
    expect(digestDesired(desiredState([], [], []))).not.toBe(digestDesired(desiredState([], [], [1])));
    expect(digestLive(liveState([], [], []))).toMatch(/^[0-9a-f]{64}$/);
  });
});
