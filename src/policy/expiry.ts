/** `expires` → Unix seconds: RFC 3339, YYYY-MM-DD (UTC midnight), or `never`. */
import { NEVER_EXPIRES } from '../model/ip.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export type ExpiryResult = { ok: true; seconds: number } | { ok: false; message: string };

export function parseExpiry(text: string | undefined): ExpiryResult {
  if (text === undefined || text === 'never') return { ok: true, seconds: NEVER_EXPIRES };
  const date = DATE.exec(text);
  const full = date ? null : RFC3339.exec(text);
  if (!date && !full) {
    return { ok: false, message: `expires "${text}" is not RFC 3339 (2027-01-31T00:00:00Z), a date (2027-01-31) or "never"` };
  }
  const [, y, mo, d] = (date ?? full) as RegExpExecArray;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || probe.getUTCDate() !== day || probe.getUTCMonth() !== month - 1) {
    return { ok: false, message: `expires "${text}" is not a real calendar date` };
  }
  if (full) {
    const [hour, minute, second] = [full[4], full[5], full[6]].map(Number) as [number, number, number];
    if (hour > 23 || minute > 59 || second > 60) return { ok: false, message: `expires "${text}" has an invalid time of day` };
  }
  const ms = date ? probe.getTime() : Date.parse(text.replace(' ', 'T'));
  if (!Number.isFinite(ms)) return { ok: false, message: `expires "${text}" is not a valid time` };
  const seconds = Math.floor(ms / 1000);
  if (seconds > NEVER_EXPIRES) return { ok: false, message: `expires "${text}" is beyond the service's maximum; write "never"` };
  return { ok: true, seconds };
}

/** `2027-01-31T00:00:00Z` for messages. */
export function formatSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
