/**
 * The outcome of an apply, for a person (text) or a machine (json). Pure.
 * Failed and skipped changes are listed with why, so a partial apply says
 * exactly what was and was not done.
 */
import { auditEntry } from '../audit/entry.js';
import { describeRewrites } from '../model/rewrites.js';
import { planClassOf } from '../plan/classes/index.js';
import { checksumOf } from '../plan/codec.js';
import { addCounts } from '../plan/change-counts.js';
import { callsPhrase, donePhrase, type ObjectCounts } from '../plan/counts.js';
import type { Change } from '../model/change.js';
import type { Plan } from '../plan/model.js';
import type { ChangeResult } from '../audit/change-result.js';
import type { ApplyReport } from './results.js';

export interface ReportOptions {
  readonly format: 'text' | 'json';
  readonly color?: boolean;
}

export function renderReport(plan: Plan, report: ApplyReport, options: ReportOptions): string {
  if (options.format === 'json') return JSON.stringify(reportJson(plan, report), null, 2) + '\n';
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const lines: string[] = [];
  for (const result of report.results) {
    if (result.status === 'failed') lines.push(paint(31, `✗ ${describe(result.change)}: ${result.detail ?? 'failed'}`));
    else if (result.status === 'skipped') lines.push(paint(33, `… ${describe(result.change)}: not applied (${result.detail ?? 'skipped'})`));
    if (result.rewrites?.length) {
      lines.push(paint(33, `! ${describe(result.change)}: the service stored it differently (${describeRewrites(result.rewrites)}); its owner mark keeps it recognized, so it is not created again`));
    }
  }
  const done = donePhrase(objectsDone(report));
  const timing = `(${callsPhrase(report.calls)}, ${(report.durationMs / 1000).toFixed(1)} s)`;
  const notDone = report.failed + report.skipped;
  lines.push(notDone === 0
    ? paint(32, `Apply complete: ${done} ${timing}.`)
    : paint(31, `Apply incomplete: ${done}; ${report.failed} change${report.failed === 1 ? '' : 's'} failed, ` +
      `${report.skipped} not attempted ${timing}.`));
  if (!report.settled) lines.push('Warning: the listings did not show every write before the wait ended; a plan right now may show them again.');
  return lines.join('\n') + '\n';
}

/**
 * Objects the changes that took effect (applied, or found already done) touched,
 * in the plan's vocabulary: `create`, `update`, `replace`, `delete`.
 */
export function objectsDone(report: ApplyReport): Required<Pick<ObjectCounts, 'create' | 'update' | 'replace' | 'delete'>> {
  const done = report.results.filter((r) => r.status === 'applied' || r.status === 'already-done').map((r) => r.change);
  return addCounts({ create: 0, update: 0, replace: 0, delete: 0 }, done);
}

function reportJson(plan: Plan, report: ApplyReport) {
  return {
    format_version: 1,
    checksum: checksumOf(plan),
    /** Objects, as the plan's `summary` counts them. */
    objects: objectsDone(report),
    /** Changes (one or more API calls each) by how they ended. */
    summary: {
      applied: report.applied,
      already_done: report.alreadyDone,
      failed: report.failed,
      skipped: report.skipped,
      rewritten: report.rewritten,
    },
    api_calls: report.calls,
    duration_ms: report.durationMs,
    settled: report.settled,
    ...(report.revision !== undefined ? { revision: report.revision } : {}),
    // Why the results whose cause is `unknown` have none: once, not on every result.
    ...(report.unknownCause !== undefined ? { unknown_cause: report.unknownCause } : {}),
    results: report.results.map((result) => resultJson(result, report.revision)),
    // Another writer's copies of what this run created, deleted: the audit record of each (cause `concurrent-writer`).
    ...(report.concurrentCopies.length > 0 ? {
      concurrent_writer: report.concurrentCopies.map((copy) => ({ action: 'delete', cause: 'concurrent-writer', status: 'applied', ...copy })),
    } : {}),
  };
}

/** The audit record (audit/entry.ts), as the `write` log line carries it, and what became of the change. */
function resultJson(result: ChangeResult, revision: string | undefined) {
  return {
    index: result.index,
    ...auditEntry(result, revision !== undefined ? { revision } : {}),
    status: result.status,
    ...(result.id !== undefined ? { id: result.id } : {}),
    ...(result.errorCode ? { error_code: result.errorCode } : {}),
    ...(result.detail ? { detail: result.detail } : {}),
    ...(result.rewrites?.length ? { rewrites: result.rewrites } : {}),
  };
}

function describe(change: Change): string {
  return planClassOf(change).describe(change);
}
