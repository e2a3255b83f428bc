/**
 * The daemon's status page, server-rendered: the policy revision, how the
 * daemon is (ready, degraded, paused, and why), the pending plan as a PR
 * comment shows it (per client and application, old → new, deletions set
 * apart), the last cycles and writes, API health, and a chart of changes and
 * drift repairs per cycle. Every value goes through `html`, so nothing a user
 * wrote (rule names, comments, reasons) becomes markup. Pure.
 */
import type { AuditEntry } from '../../audit/entry.js';
import { groupByAction } from '../../model/by-action.js';
import { renderText } from '../../plan/render/text.js';
import { planChangeIds, type PlanBody } from '../../plan/types.js';
import type { CycleRecord } from '../cycle-record.js';
import type { PolicyProblems } from '../../reconcile/outcome.js';
import type { DaemonState } from '../state.js';
import type { CycleSummary } from './history.js';
import { html, type Html } from './html.js';
import { changesChart } from './chart.js';
import { moment } from './time.js';

export interface PageInput {
  readonly state: DaemonState;
  /** Calls and errors by route and status, from the metrics. */
  readonly api: readonly { readonly route: string; readonly status: string; readonly calls: number }[];
  /** `POST /pause` is served (an admin token file is set). */
  readonly admin: boolean;
  readonly now: number;
}

export function statusOf(state: DaemonState): { readonly status: string; readonly reason?: string } {
  const last = state.lastCycle;
  if (!state.everSucceeded) return { status: 'not ready', reason: last?.error ?? 'no successful cycle yet' };
  if (last?.paused) return { status: 'paused', reason: last.paused.reason };
  if (last && (last.status === 'failed' || last.status === 'invalid' || last.status === 'refused')) return { status: 'degraded', reason: last.error ?? last.status };
  return { status: 'ready' };
}

/** The part of the page that refreshes itself. */
export function renderMain(input: PageInput): Html {
  const { state } = input;
  const { status, reason } = statusOf(state);
  const revision = state.lastCycle?.revision;
  const plan = state.lastPlan?.body;
  const history = state.history;
  return html`
<section class="summary">
  <div class="badge ${status.replace(' ', '-')}" data-testid="status">${status}</div>
  ${reason ? html`<p class="reason" data-testid="reason">${reason}</p>` : ''}
  ${problemList(state.lastCycle?.problems)}
  <dl>
    <dt>Policy revision</dt><dd data-testid="revision">${revision ? html`<code>${revision.revision}</code> <span class="muted">(${revision.source})</span>` : html`<span class="muted">unknown (not a git or ConfigMap checkout)</span>`}</dd>
    <dt>Last success</dt><dd>${state.lastSuccessAt !== undefined ? moment(state.lastSuccessAt, input.now) : 'never'}</dd>
    <dt>Last cycle</dt><dd>${state.lastCycle ? html`${state.lastCycle.result} at ${moment(state.lastCycle.finishedAt, input.now)}` : 'none yet'}</dd>
    ${state.concurrentWriter ? html`<dt>Concurrent writer</dt><dd class="warn">seen ${moment(state.concurrentWriter.at, input.now)}: ${state.concurrentWriter.copies} cop${state.concurrentWriter.copies === 1 ? 'y' : 'ies'} deleted</dd>` : ''}
  </dl>
</section>
<section>
  ${planSection(state, plan, input.now)}
</section>
<section>
  <h2>Changes and drift repairs per cycle</h2>
  ${changesChart(history?.cycles() ?? [])}
</section>
<section>
  <h2>Last cycles</h2>
  ${cyclesTable(history?.cycles().slice(0, 15) ?? [], input.now)}
</section>
<section>
  <h2>Recent writes</h2>
  ${writesTable(history?.writes() ?? [])}
</section>
<section>
  <h2>API health</h2>
  ${apiTable(input.api)}
</section>`;
}

/** Titles by what became of the plan: only what was not applied is pending. */
const PLAN_TITLES: Readonly<Record<CycleRecord['status'], string>> = {
  'applied': 'Last plan: applied',
  'nothing-to-do': 'Last plan: nothing to change',
  'failed': 'Last plan: failed part-way (what failed is pending)',
  'refused': 'Pending plan: refused by a safety guard',
  'paused': 'Pending plan: held by the pause',
  'dry-run': 'Pending plan: dry run, nothing is applied',
  'invalid': 'Pending plan, from the last valid policies: the files now are invalid',
};

/**
 * The last plan, titled by what became of it (applied is not pending), and
 * said plainly when the latest cycle never got to a plan (the API down, the
 * files invalid): the plan shown is then an older cycle's.
 */
function planSection(state: DaemonState, plan: PlanBody | undefined, now: number): Html {
  const made = state.lastPlanCycle;
  const latest = state.lastCycle;
  const stale = made && latest && latest.id !== made.id
    ? html`<p class="warn" data-testid="plan-stale">The latest cycle (${moment(latest.finishedAt, now)}) ${latest.status === 'invalid' ? 'found the policies invalid' : `did not get to a plan (${latest.result})`}${latest.error ? html`: ${latest.error}` : ''}. The plan below is from the cycle at ${moment(made.finishedAt, now)}.</p>`
    : '';
  if (!plan) {
    return html`<h2 data-testid="plan-title">Plan</h2>${latest?.error ? html`<p class="warn" data-testid="plan-stale">No plan yet: ${latest.error}</p>` : html`<p class="muted">No plan yet.</p>`}`;
  }
  const title = made ? PLAN_TITLES[made.status] : 'Last plan';
  return html`<h2 data-testid="plan-title">${title}</h2>${stale}${made ? html`<p class="muted">Made by the cycle at ${moment(made.finishedAt, now)}${made.revision ? html` from revision <code>${made.revision.revision}</code>` : ''}.</p>` : ''}${pendingPlan(plan)}`;
}

/** Every error of invalid policy files, as `rampart validate` lists them. */
function problemList(problems: PolicyProblems | undefined): Html | string {
  if (!problems || problems.list.length === 0) return '';
  const more = problems.count - problems.list.length;
  return html`<details class="problems" open data-testid="problems"><summary>${problems.count} policy error${problems.count === 1 ? '' : 's'}; <code>rampart validate</code> on the revision read lists the same</summary><ul>${problems.list.map((p) => html`
<li><code>${p.file}:${p.line}:${p.col}</code> ${p.message} <span class="muted">[${p.code}]</span></li>`)}</ul>${more > 0 ? html`<p class="muted">and ${more} more</p>` : ''}</details>`;
}

/** Like the PR comment: deletions set apart first, then every change per client and application, old → new. */
function pendingPlan(plan: PlanBody): Html {
  const deletions = groupByAction(plan.changes)('delete');
  const text = renderText(plan, { color: false });
  return html`
  ${deletions.length > 0 ? html`<div class="caution" data-testid="deletions"><strong>This plan deletes ${plan.summary.delete} object${plan.summary.delete === 1 ? '' : 's'}:</strong><ul>${deletions.map((change) => html`<li>${change.kind} ${'name' in change && change.name ? change.name : ''} ${planChangeIds(change).map((id) => `#${id}`).join(', ')} (client ${change.client})</li>`)}</ul></div>` : ''}
  <pre class="plan" data-testid="plan">${text}</pre>`;
}

function cyclesTable(cycles: readonly CycleSummary[], now: number): Html {
  if (cycles.length === 0) return html`<p class="muted">No cycle yet.</p>`;
  return html`<div class="scroll"><table><thead><tr><th>Started</th><th>Duration</th><th>Result</th><th>Changes</th><th>Drift repaired</th></tr></thead><tbody>${cycles.map((c) => html`
<tr><td>${moment(c.startedAt, now)}</td><td>${(c.durationMs / 1000).toFixed(2)} s</td><td class="result ${c.result}">${c.result}</td><td>${changesText(c)}</td><td>${c.drift}</td></tr>`)}</tbody></table></div>`;
}

/** `create 2, delete 1`, or what was planned and not written. */
function changesText(cycle: CycleSummary): string {
  const text = Object.entries(cycle.changes ?? {}).filter(([, n]) => (n ?? 0) > 0).map(([action, n]) => `${action} ${n}`).join(', ');
  if (text === '') return '—';
  return cycle.written ? text : `${text} (planned, not written)`;
}

function writesTable(writes: readonly AuditEntry[]): Html {
  if (writes.length === 0) return html`<p class="muted">No write yet.</p>`;
  return html`<div class="scroll"><table data-testid="writes"><thead><tr><th>Action</th><th>Kind</th><th>Name</th><th>Where</th><th>Cause</th><th>Status</th></tr></thead><tbody>${writes.map((w) => html`
<tr><td>${w.action}</td><td>${w.kind}</td><td>${w.name ?? ''}${w.values ? html`${w.name ? ': ' : ''}<span class="values" data-testid="write-values">${valuesText(w.values)}</span>` : ''}</td><td>${w.file !== undefined ? `${w.file}:${w.line ?? ''}` : `client ${w.client}`}</td><td class="cause ${w.cause}">${w.cause}</td><td>${w.status}</td></tr>`)}</tbody></table></div>`;
}

/** The values an IP write wrote or removed, the first ones named. */
const VALUES_SHOWN = 8;

function valuesText(values: readonly string[]): string {
  const named = values.slice(0, VALUES_SHOWN).join(', ');
  return values.length > VALUES_SHOWN ? `${named} and ${values.length - VALUES_SHOWN} more` : named;
}

function apiTable(api: PageInput['api']): Html {
  if (api.length === 0) return html`<p class="muted">No API call yet.</p>`;
  return html`<div class="scroll"><table><thead><tr><th>Route</th><th>Status</th><th>Calls</th></tr></thead><tbody>${api.map((row) => html`
<tr class="${/^2/.test(row.status) ? '' : 'error'}"><td><code>${row.route}</code></td><td>${row.status}</td><td>${row.calls}</td></tr>`)}</tbody></table></div>`;
}
