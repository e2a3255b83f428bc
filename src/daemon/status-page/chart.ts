/** A small inline SVG of the changes and drift repairs of each recent cycle, oldest on the left. */
import type { CycleSummary } from './history.js';
import { html, type Html } from './html.js';

const WIDTH = 720;
const HEIGHT = 120;

export function changesChart(newestFirst: readonly CycleSummary[]): Html {
  const cycles = [...newestFirst].reverse();
  if (cycles.length === 0) return html`<p class="muted">No cycle yet.</p>`;
  // Only what was written: a paused or dry-run cycle's plan changed nothing.
  const totals = cycles.map((c) => (c.written ? Object.values(c.changes ?? {}).reduce((sum: number, n) => sum + (n ?? 0), 0) : 0));
  const max = Math.max(1, ...totals, ...cycles.map((c) => c.drift));
  const step = WIDTH / cycles.length;
  const bar = Math.max(2, step * 0.6);
  const y = (n: number) => HEIGHT - (n / max) * (HEIGHT - 10);
  const label = `${cycles.length} cycles; most changes in one cycle: ${Math.max(...totals)}`;
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}" data-testid="chart">
  <line x1="0" y1="${HEIGHT - 0.5}" x2="${WIDTH}" y2="${HEIGHT - 0.5}" class="axis"/>
  ${cycles.map((c, i) => html`<rect class="changes" x="${(i * step).toFixed(1)}" y="${y(totals[i] ?? 0).toFixed(1)}" width="${bar.toFixed(1)}" height="${(HEIGHT - y(totals[i] ?? 0)).toFixed(1)}"><title>${new Date(c.startedAt).toISOString()}: ${totals[i] ?? 0} changes, ${c.drift} drift repairs (${c.result})</title></rect>${c.drift > 0 ? html`<rect class="drift" x="${(i * step).toFixed(1)}" y="${y(c.drift).toFixed(1)}" width="${bar.toFixed(1)}" height="${(HEIGHT - y(c.drift)).toFixed(1)}"/>` : ''}`)}
</svg>
<p class="legend"><span class="swatch changes"></span> changes applied <span class="swatch drift"></span> of which drift repairs</p>`;
}
