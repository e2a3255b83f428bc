import { createHash } from 'node:crypto';
import { ipKey, type IpEntry } from '../model/ip.js';
import { ruleContentKey, type Rule } from '../model/rule.js';
import type { DesiredState, LiveState } from '../model/state.js';

/**
 * Digests of what a plan was computed from, so `apply --plan FILE` can refuse a
 * plan whose policies or live state changed since. Each is a sha256 over one
 * canonical line per object, sorted: input order and source positions (moving a
 * declaration to another line) do not change it; any object, attribute, id or
 * owner change does.
 */

function ruleLine(rule: Rule): string {
  return ruleContentKey(rule);
}

function ipLine(entry: IpEntry): string {
  return JSON.stringify([ipKey(entry), entry.expiresAt, entry.reason ?? null]);
}

function digestLines(clients: readonly number[], groups: readonly string[][]): string {
  const hash = createHash('sha256');
  hash.update(`clients ${JSON.stringify([...new Set(clients)].sort((a, b) => a - b))}\n`);
  groups.forEach((lines, i) => {
    lines.sort();
    hash.update(`section ${i} ${lines.length}\n`);
    // One update per section: tens of thousands of small updates cost more than the join.
    if (lines.length > 0) hash.update(`${lines.join('\n')}\n`);
  });
  return hash.digest('hex');
}

export function digestDesired(desired: DesiredState): string {
  return digestLines(desired.clients, [desired.rules.map(ruleLine), desired.ipEntries.map(ipLine)]);
}

export function digestLive(live: LiveState): string {
  return digestLines(live.clients, [
    live.rules.map((r) => JSON.stringify([r.id, r.owner ?? null, ruleLine(r)])),
    live.ipEntries.map((e) => JSON.stringify([e.id, e.objectSize, e.owner ?? null, ipLine(e)])),
  ]);
}
