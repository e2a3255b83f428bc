/**
 * An IP entry's fingerprint and write key (fingerprint.ts says what they are
 * for). A multi-value object's fingerprint leaves the values out; its write key
 * adds the value.
 */
import { fingerprintOf } from './fingerprint.js';
import type { IpEntry } from './ip.js';

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
  return fingerprintOf(JSON.stringify([
    'ip', entry.client, entry.list, entry.ruleType, entry.pools, entry.expiresAt, entry.reason || null,
    entry.ruleType === 'ip_range' ? entry.value : null,
  ]));
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

export function listedIpWriteKey(entry: Pick<IpEntry, 'ruleType' | 'value'> & { readonly fingerprint?: string }): string | undefined {
  return entry.fingerprint === undefined ? undefined : writeKeyOf(entry, entry.fingerprint);
}
