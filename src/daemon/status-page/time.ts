/**
 * A moment as the status page shows it: the absolute time, readable and in
 * UTC, with how long ago it was beside it (`2026-11-28 06:05:00 UTC (3 min
 * ago)`), the machine-readable stamp kept in `<time datetime>`.
 */
import { html, type Html } from './html.js';

const UNITS = [['d', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]] as const;

/** `3 min ago`, `2 h ago`, `just now`; `in 5 s` for a moment still ahead. */
export function relativeTime(at: number, now: number): string {
  const delta = now - at;
  const size = Math.abs(delta);
  if (size < 1000) return 'just now';
  const [unit, ms] = UNITS.find(([, length]) => size >= length) ?? ['s', 1000];
  const count = Math.floor(size / ms);
  return delta >= 0 ? `${count} ${unit} ago` : `in ${count} ${unit}`;
}

export function moment(at: number | string, now: number): Html {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return html`${String(at)}`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time> <span class="muted">(${relativeTime(ms, now)})</span>`;
}
