/**
 * An inline SVG of the recent cycles, oldest on the left: a bar of the changes
 * each one applied (drift repairs in red inside it), and a mark for every
 * cycle that wrote nothing, by what it was (nothing to do, paused, refused,
 * failed, invalid), so a quiet hour and a broken one look different. The axes
 * say how many changes and when.
 */
import type { CycleSummary } from './history.js';
import { html, type Html } from './html.js';

const WIDTH = 720;
const HEIGHT = 140;
/** Room for the count labels on the left and the times below. */
const LEFT = 36;
const BOTTOM = 18;
const TOP = 8;

/** How a cycle that wrote nothing is marked, by its result; the legend names each. */
const MARKS: Readonly<Record<string, string>> = {
  'no-op': 'nothing to do',
  'skipped': 'dry run',
  'paused': 'paused',
  'unsafe': 'refused',
  'churn': 'refused',
  'failed': 'failed',
  'invalid': 'invalid policies',
};

const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);

export function changesChart(newestFirst: readonly CycleSummary[]): Html {
  const cycles = [...newestFirst].reverse();
  if (cycles.length === 0) return html`<p class="muted">No cycle yet.</p>`;
  // Only what was written: a paused or dry-run cycle's plan changed nothing.
  const totals = cycles.map((c) => (c.written ? Object.values(c.changes ?? {}).reduce((sum: number, n) => sum + (n ?? 0), 0) : 0));
  const max = Math.max(1, ...totals, ...cycles.map((c) => c.drift));
  const plotWidth = WIDTH - LEFT;
  const base = HEIGHT - BOTTOM;
  const step = plotWidth / cycles.length;
  const bar = Math.max(2, step * 0.6);
  const y = (n: number) => base - (n / max) * (base - TOP);
  const x = (i: number) => LEFT + i * step;
  const first = cycles[0] as CycleSummary;
  const last = cycles[cycles.length - 1] as CycleSummary;
  const label = `${cycles.length} cycles from ${hhmm(first.startedAt)} to ${hhmm(last.startedAt)} UTC; most changes in one cycle: ${Math.max(...totals)}`;
  // Each kind of mark shown once in the legend, styled by the first result that drew it.
  const legend = new Map<string, string>();
  cycles.forEach((c, i) => {
    const label = MARKS[c.result] ?? c.result;
    if ((totals[i] ?? 0) === 0 && !legend.has(label)) legend.set(label, c.result);
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}" data-testid="chart">
  <line x1="${LEFT}" y1="${base + 0.5}" x2="${WIDTH}" y2="${base + 0.5}" class="axis"/>
  <line x1="${LEFT - 0.5}" y1="${TOP}" x2="${LEFT - 0.5}" y2="${base}" class="axis"/>
  <text x="${LEFT - 4}" y="${TOP + 8}" text-anchor="end" class="tick" data-testid="chart-max">${max}</text>
  <text x="${LEFT - 4}" y="${base}" text-anchor="end" class="tick">0</text>
  <text x="${LEFT}" y="${HEIGHT - 4}" class="tick" data-testid="chart-from">${hhmm(first.startedAt)}</text>
  <text x="${WIDTH}" y="${HEIGHT - 4}" text-anchor="end" class="tick" data-testid="chart-to">${hhmm(last.startedAt)} UTC</text>
  ${cycles.map((c, i) => {
    const total = totals[i] ?? 0;
    const title = html`<title>${new Date(c.startedAt).toISOString()}: ${total} changes, ${c.drift} drift repairs (${c.result})</title>`;
    if (total === 0) {
      // A cycle that wrote nothing: a mark on the axis, shaped by what it was.
      return html`<rect class="cycle ${c.result}" data-result="${c.result}" x="${(x(i) + bar / 2 - 2).toFixed(1)}" y="${base - 7}" width="4" height="6">${title}</rect>`;
    }
    return html`<rect class="cycle changes" data-result="${c.result}" x="${x(i).toFixed(1)}" y="${y(total).toFixed(1)}" width="${bar.toFixed(1)}" height="${(base - y(total)).toFixed(1)}">${title}</rect>${c.drift > 0 ? html`<rect class="drift" x="${x(i).toFixed(1)}" y="${y(c.drift).toFixed(1)}" width="${bar.toFixed(1)}" height="${(base - y(c.drift)).toFixed(1)}"/>` : ''}`;
  })}
</svg>
<p class="legend"><span class="swatch changes"></span> changes applied <span class="swatch drift"></span> of which drift repairs${[...legend].map(([label, result]) => html` <span class="swatch mark ${result}"></span> ${label}`)}</p>`;
}
