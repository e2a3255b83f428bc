/** What the service stored of an IP entry differently from its declaration (rewrites.ts). */
import { NEVER_EXPIRES, type IpEntry } from './ip.js';
import { rewriteText, type FieldRewrite } from './rewrites.js';

function formatExpiry(seconds: number): string {
  return seconds >= NEVER_EXPIRES ? 'never' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

export function ipRewrites(declared: IpEntry, stored: IpEntry): FieldRewrite[] {
  const out: FieldRewrite[] = [];
  if (declared.value !== stored.value) out.push({ field: 'value', declared: declared.value, stored: stored.value });
  const pools = (e: IpEntry) => e.pools.join(', ');
  if (pools(declared) !== pools(stored)) out.push({ field: 'application', declared: pools(declared), stored: pools(stored) });
  if (declared.expiresAt !== stored.expiresAt) {
    out.push({ field: 'expires', declared: formatExpiry(declared.expiresAt), stored: formatExpiry(stored.expiresAt) });
  }
  if ((declared.reason ?? '') !== (stored.reason ?? '')) {
    out.push({ field: 'reason', declared: rewriteText(declared.reason), stored: rewriteText(stored.reason) });
  }
  return out;
}
