import { createHash } from 'node:crypto';
import { objectsOf, type ObjectClass } from '../model/object-class.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { classesInPlanOrder, planClass } from './classes/index.js';
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
  return digestOf(desired.clients, (kind, hash) => {
    const { digest } = planClass(kind);
    const sum = new HashSum();
    for (const object of objectsOf<ObjectClass, 'desired'>(desired, kind)) sum.add(digest.desired(hash.reset(), object).finish());
    return sum;
  });
}

export function digestLive(live: LiveState): string {
  return digestOf(live.clients, (kind, hash) => {
    const { digest } = planClass(kind);
    const sum = new HashSum();
    for (const object of objectsOf<ObjectClass, 'live'>(live, kind)) sum.add(digest.live(hash.reset(), object).finish());
    return sum;
  });
}

/** Each class's sum, in plan order, under its label. */
function digestOf(clients: readonly number[], sumOf: (kind: ObjectClass, hash: Hash128) => HashSum): string {
  const hash = new Hash128();
  return finish(clients, classesInPlanOrder().map((kind) => `${planClass(kind).digest.label} ${sumOf(kind, hash)}`));
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
function finish(clients: readonly number[], sums: readonly string[]): string {
  const sorted = [...new Set(clients)].sort((a, b) => a - b);
  return createHash('sha256').update(`rampart state digest 2\nclients ${sorted.join(',')}\n${sums.map((sum) => `${sum}\n`).join('')}`).digest('hex');
}
