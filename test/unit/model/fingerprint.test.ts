import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shortHexDigest } from '../../../src/model/fingerprint.js';
import { uncachedIpWriteKey, ipWriteKey } from '../../../src/model/ip-fingerprint.js';
import type { IpEntry } from '../../../src/model/ip.js';

describe('shortHexDigest', () => {
  it('is the start of the SHA-256 hex digest, for even and odd lengths', () => {
    for (const text of ['', 'rule [1,"mode"]', 'é ☃ 𝄞', 'x'.repeat(10_000)]) {
      const full = createHash('sha256').update(text).digest('hex');
      for (const digits of [1, 7, 16, 20, 64]) expect(shortHexDigest(text, digits)).toBe(full.slice(0, digits));
    }
  });
});

describe('uncachedIpWriteKey', () => {
  it('is the write key, for an address (its own object) and for a value of a group', () => {
    const base = { client: 1, list: 'black', pools: [7], expiresAt: 33223139044, reason: 'why' } as const;
    const entries: IpEntry[] = [
      { ...base, ruleType: 'ip_range', value: '198.51.100.0/24' },
      { ...base, ruleType: 'country', value: 'KP' },
    ];
    for (const entry of entries) expect(uncachedIpWriteKey(entry)).toBe(ipWriteKey(entry));
    expect(ipWriteKey(entries[1] as IpEntry)).toMatch(/^[0-9a-f]{16}\|KP$/);
  });
});
