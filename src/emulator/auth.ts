/** `X-ServiceApi-Token` (and, when configured, `X-ServiceApi-Secret`) checks. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { unauthorized } from './envelope.js';

export interface Credentials {
  readonly token: string;
  readonly secret?: string;
}

/** 401 unless the headers carry the token (and the secret, when one is set). */
export function authenticate(headers: IncomingHttpHeaders, credentials: Credentials): void {
  if (!same(headers['x-serviceapi-token'], credentials.token)) throw unauthorized();
  if (credentials.secret !== undefined && !same(headers['x-serviceapi-secret'], credentials.secret)) {
    throw unauthorized();
  }
}

function same(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Constant time, so the token cannot be guessed byte by byte.
  return a.length === b.length && timingSafeEqual(a, b);
}
