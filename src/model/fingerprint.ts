/**
 * Fingerprints of declared objects, written into the owner mark when Rampart
 * creates an object (model/ownership.ts). A stored object whose mark carries
 * the fingerprint of a declared object is that object, whatever the service
 * rewrote on the way in: the plan needs no knowledge of the rewrite.
 *
 * A fingerprint covers everything the declaration says about the object (the
 * comment or reason included), so any declared change gives another one. For
 * multi-value IP objects it leaves the values out: one create carries several
 * values and later plans group values differently; values are matched by their
 * canonical form. Each class makes its own (rule-fingerprint.ts,
 * ip-fingerprint.ts) from this one hash.
 */
import { createHash } from 'node:crypto';

/** 16 hex digits: collisions within one account are out of reach, the mark stays short. */
const LENGTH = 16;

/** A fingerprint of a declaration's canonical text: what each class's marks carry (rule-fingerprint.ts, ip-fingerprint.ts). */
export function fingerprintOf(text: string): string {
  return shortHexDigest(text, LENGTH);
}

/**
 * The first `digits` hex digits of the SHA-256 of `text`, as a string of its
 * own. `digest('hex').slice(…)` gives a slice that keeps the whole 64-digit
 * text alive: a daemon keeps one per declared object, 12 MB of them at
 * 10k rules + 50k IP values, against 4 MB this way.
 */
export function shortHexDigest(text: string, digits: number): string {
  return createHash('sha256').update(text).digest().toString('hex', 0, Math.ceil(digits / 2)).slice(0, digits);
}
