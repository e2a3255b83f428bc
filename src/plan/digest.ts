import { createHash } from 'node:crypto';
import type { IpEntry } from '../model/ip.js';
import type { Rule } from '../model/rule.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { Hash128 } from './hash128.js';

/**
 * Digests of what a plan was computed from, so `apply --plan FILE` can refuse a
 * plan whose policies or live state changed since. Each object is hashed on
 * its own (Hash128 over its fields, no text built) and the hashes are added up,
 * so input order and source positions (moving a declaration to another line)
 * do not change a digest; any object, attribute, id or owner change does, and
 * so does an object held twice (a sum, not an xor, which would cancel it).
 *
 * A staleness check, not a security boundary: a sum of non-cryptographic hashes
 * is easy to forge. It need not resist that: `apply --plan` plans again from
 * the policies and live state it reads and applies only if the changes are
 * the file's.
 */

export function digestDesired(desired: DesiredState): string {
  const hash = new Hash128();
  const rules = new HashSum();
  for (const rule of desired.rules) rules.add(hashRule(hash.reset(), rule).finish());
  const ip = new HashSum();
  for (const entry of desired.ipEntries) ip.add(hashIp(hash.reset(), entry).finish());
  return finish(desired.clients, rules, ip);
}

export function digestLive(live: LiveState): string {
  const hash = new Hash128();
  const rules = new HashSum();
  for (const rule of live.rules) {
    hash.reset();
    hash.number(rule.id);
    hash.optionalString(rule.owner);
    rules.add(hashRule(hash, rule).finish());
  }
  const ip = new HashSum();
  for (const entry of live.ipEntries) {
    hash.reset();
    hash.number(entry.id);
    hash.number(entry.objectSize);
    hash.optionalString(entry.owner);
    ip.add(hashIp(hash, entry).finish());
  }
  return finish(live.clients, rules, ip);
}

/** What `ruleContentKey` holds: identity, every field, the comment (none and empty alike). */
function hashRule(hash: Hash128, rule: Rule): Hash128 {
  hash.number(rule.client);
  hash.string(rule.kind);
  // Both readers sort conditions (`sortConditions`) when they make a rule: hashed in that order.
  hash.word(rule.conditions.length);
  for (const condition of rule.conditions) {
    hash.value(condition.point);
    hash.string(condition.type);
    hash.value(condition.value);
  }
  hash.value(rule.point);
  hash.value(rule.fields);
  hash.optionalString(rule.comment || undefined);
  return hash;
}

/** What `ipKey` holds, then expiry and reason (none and empty told apart). */
function hashIp(hash: Hash128, entry: IpEntry): Hash128 {
  hash.number(entry.client);
  hash.string(entry.list);
  hash.string(entry.ruleType);
  hash.string(entry.value);
  const pools = entry.pools;
  hash.word(pools.length);
  for (let i = 0; i < pools.length; i++) hash.number(pools[i] as number);
  hash.number(entry.expiresAt);
  hash.optionalString(entry.reason);
  return hash;
}

/** A multiset of 128-bit hashes: their count and their sum, as two 64-bit lanes each modulo 2^64. */
class HashSum {
  private count = 0;
  private lo1 = 0;
  private hi1 = 0;
  private lo2 = 0;
  private hi2 = 0;

  add(hash: Hash128): void {
    this.count++;
    const lo1 = this.lo1 + hash.out1;
    this.lo1 = lo1 >>> 0;
    this.hi1 = (this.hi1 + hash.out2 + (lo1 > 0xffffffff ? 1 : 0)) >>> 0;
    const lo2 = this.lo2 + hash.out3;
    this.lo2 = lo2 >>> 0;
    this.hi2 = (this.hi2 + hash.out4 + (lo2 > 0xffffffff ? 1 : 0)) >>> 0;
  }

  toString(): string {
    return `${this.count} ${[this.hi1, this.lo1, this.hi2, this.lo2].map((w) => w.toString(16).padStart(8, '0')).join('')}`;
  }
}

/** sha256 of the sums: a few lines, whatever the size of the state. */
function finish(clients: readonly number[], rules: HashSum, ip: HashSum): string {
  const sorted = [...new Set(clients)].sort((a, b) => a - b);
  return createHash('sha256').update(`rampart state digest 2\nclients ${sorted.join(',')}\nrules ${rules}\nip ${ip}\n`).digest('hex');
}
