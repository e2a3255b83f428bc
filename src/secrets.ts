/**
 * The credentials Rampart was given, and the one function that takes them out
 * of text it prints. A server or proxy that echoes the token in an error body
 * must not get it into CLI errors, log lines or the daemon's /readyz: API
 * errors are built through it (errors.ts) and every log line passes it (log.ts).
 */

export const REDACTED = '[redacted]';

/** Shorter values would blank out ordinary words; they are no secret worth the name anyway. */
const MIN_LENGTH = 4;

const known = new Set<string>();

export function registerSecret(value: string | undefined): void {
  if (value === undefined || value.length < MIN_LENGTH) return;
  known.add(value);
  // As it reads inside a JSON string (a log line, an error body quoted in JSON).
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) known.add(escaped);
}

export function redactSecrets(text: string): string {
  if (known.size === 0) return text;
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Strings inside a parsed body, redacted; other values as they are. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (known.size === 0 || depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, redactSecrets(key), { value: redactDeep(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
