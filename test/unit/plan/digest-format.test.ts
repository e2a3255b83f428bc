import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ipKey, type IpEntry, type LiveIpEntry } from '../../../src/model/ip.js';
import { ruleContentKey } from '../../../src/model/rule.js';
import type { DesiredState, LiveState } from '../../../src/model/state.js';
import { digestDesired, digestLive } from '../../../src/plan/digest.js';
import { desiredIp, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields } from './builders.js';

/*
 * Saved plans carry both digests, and `apply --plan` compares them: their
 * value is a format. This is that format as first written (JSON arrays,
 * default sort); the digests, built faster, must give the same hex.
 */
function reference(clients: readonly number[], groups: string[][]): string {
  const hash = createHash('sha256');
  hash.update(`clients ${JSON.stringify([...new Set(clients)].sort((a, b) => a - b))}\n`);
  groups.forEach((lines, i) => {
    lines.sort();
    hash.update(`section ${i} ${lines.length}\n`);
    if (lines.length > 0) hash.update(`${lines.join('\n')}\n`);
  });
  return hash.digest('hex');
}
const ipLine = (e: IpEntry): string => JSON.stringify([JSON.stringify([e.client, e.list, e.ruleType, e.value, e.pools]), e.expiresAt, e.reason ?? null]);
const referenceDesired = (d: DesiredState): string => reference(d.clients, [d.rules.map(ruleContentKey), d.ipEntries.map(ipLine)]);
const referenceLive = (l: LiveState): string => reference(l.clients, [
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

  it('gives the digests of the JSON lines they were defined by', () => {
    for (const e of [...desiredEntries, ...liveEntries]) expect(ipKey(e)).toBe(JSON.stringify([e.client, e.list, e.ruleType, e.value, e.pools]));
    expect(digestDesired(desired)).toBe(referenceDesired(desired));
    expect(digestLive(live)).toBe(referenceLive(live));
  });

  it('changes with any value, attribute or owner', () => {
    const [first, ...rest] = liveEntries as [LiveIpEntry, ...LiveIpEntry[]];
    expect(digestLive({ ...live, ipEntries: [{ ...first, value: 'a\\"b' }, ...rest] })).not.toBe(digestLive(live));
    expect(digestLive({ ...live, ipEntries: [{ ...first, owner: 'other' }, ...rest] })).not.toBe(digestLive(live));
  });
});
