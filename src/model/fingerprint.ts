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
 * canonical form.
 */
import { createHash } from 'node:crypto';
import type { IpEntry } from './ip.js';
import { ruleContentKey, type Rule } from './rule.js';

/** 16 hex digits: collisions within one account are out of reach, the mark stays short. */
const LENGTH = 16;

function hash(text: string): string {
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

const ruleFingerprints = new WeakMap<Rule, string>();

export function ruleFingerprint(rule: Rule): string {
  let fingerprint = ruleFingerprints.get(rule);
  if (fingerprint === undefined) {
    fingerprint = hash(`rule ${ruleContentKey(rule)}`);
    ruleFingerprints.set(rule, fingerprint);
  }
  return fingerprint;
}

const ipFingerprints = new WeakMap<IpEntry, string>();

export function ipFingerprint(entry: IpEntry): string {
  let fingerprint = ipFingerprints.get(entry);
  if (fingerprint === undefined) {
    fingerprint = computeIpFingerprint(entry);
    ipFingerprints.set(entry, fingerprint);
  }
  return fingerprint;
}

function computeIpFingerprint(entry: IpEntry): string {
  return hash(JSON.stringify([
    'ip', entry.client, entry.list, entry.ruleType, entry.pools, entry.expiresAt, entry.reason || null,
    entry.ruleType === 'ip_range' ? entry.value : null,
  ]));
}

/**
 * What a write is recognized by in a listing before its id is known: the
 * fingerprint the mark carries (and, in a multi-value object, the value).
 */
export function ruleWriteKey(rule: Rule): string {
  return ruleFingerprint(rule);
}

export function ipWriteKey(entry: IpEntry): string {
  return writeKeyOf(entry, ipFingerprint(entry));
}

/** The same, its fingerprint not kept on the entry: for what is computed once for every declared value. */
export function uncachedIpWriteKey(entry: IpEntry): string {
  return writeKeyOf(entry, computeIpFingerprint(entry));
}

function writeKeyOf(entry: Pick<IpEntry, 'ruleType' | 'value'>, fingerprint: string): string {
  return entry.ruleType === 'ip_range' ? fingerprint : `${fingerprint}|${entry.value}`;
}

/** The write key a listed object's mark carries, if it has a fingerprint. */
export function listedRuleWriteKey(rule: { readonly fingerprint?: string }): string | undefined {
  return rule.fingerprint;
}

export function listedIpWriteKey(entry: Pick<IpEntry, 'ruleType' | 'value'> & { readonly fingerprint?: string }): string | undefined {
  return entry.fingerprint === undefined ? undefined : writeKeyOf(entry, entry.fingerprint);
}
