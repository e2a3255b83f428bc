import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shortHexDigest } from '../../../src/model/fingerprint.js';

describe('shortHexDigest', () => {
  it('is the start of the SHA-256 hex digest, for even and odd lengths', () => {
    for (const text of ['', 'rule [1,"mode"]', 'é ☃ 𝄞', 'x'.repeat(10_000)]) {
      const full = createHash('sha256').update(text).digest('hex');
      for (const digits of [1, 7, 16, 20, 64]) expect(shortHexDigest(text, digits)).toBe(full.slice(0, digits));
    }
  });
});
