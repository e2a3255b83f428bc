/**
 * Executes a plan: every create first (bounded concurrency, the retry policy in
 * the client), then the updates in place, then the deletes (a client's rule
 * deletes batched), skipping any delete whose replacement failed so protection
 * never lapses. A stop request lets calls in flight finish and starts
 * no new ones. Returns a per-change report; it never throws for a failed change.
 */
import { auditEntry, type AuditContext } from '../audit/entry.js';
import { groupByAction } from '../model/by-action.js';
import { runBounded } from '../concurrency.js';
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import { hasReplacements } from '../plan/classes/class.js';
import { groupByClass, classesInPlanOrder, planClassOf } from '../plan/classes/index.js';
import { hasReferences } from './classes/class.js';
import { applyClass, applyClassOf } from './classes/index.js';
import { partition, runChange, type ChangeRun, type Indexed } from './run-change.js';
import type { Plan } from '../plan/model.js';
import type { ServiceApi } from '../api/service.js';
import type { ExecuteContext } from './execute.js';
import type { ChangeResult } from '../audit/change-result.js';
import { type ApplyReport, summarize } from './results.js';
import { removeConcurrentCopies } from './concurrent-copies.js';
import type { ConcurrentCopy } from './copy-finder.js';
import { ListingReads } from './listing-reads.js';
import { waitForListings } from './settle.js';
import type { WriteJournal } from '../live/write-journal.js';

/** How long to look for a create whose outcome is unknown (lag is ~3 s) before making it again. */
export const DEFAULT_VERIFY_TIMEOUT_MS = 10_000;

export interface ApplyOptions {
  readonly api: ServiceApi;
  readonly concurrency?: number;
  /** Graceful stop: no new call starts; calls in flight finish. */
  readonly stop?: AbortSignal;
  readonly logger?: Logger;
  readonly journal?: WriteJournal;
  /** Wait for the listings to show the writes before returning (0 disables). */
  readonly settleTimeoutMs?: number;
  readonly settleIntervalMs?: number;
  readonly verifyTimeoutMs?: number;
  /** Told after each change, for metrics and progress. */
  readonly onResult?: (result: ChangeResult) => void;
  /** The revision and why each change is made, for the `write` log line and the report. */
  readonly audit?: AuditContext;
}

export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<ApplyReport> {
  const started = Date.now();
  const callsBefore = options.api.http.totalCalls;
  const logger = options.logger ?? silentLogger();
  const context: ExecuteContext = {
    api: options.api,
    owner: plan.owner,
    stopRetrying: options.stop,
    journal: options.journal,
    verifyTimeoutMs: options.verifyTimeoutMs ?? verifyTimeoutFor(options.settleTimeoutMs),
    verifyIntervalMs: Math.min(1_000, options.settleIntervalMs ?? 1_000),
  };
  const results: ChangeResult[] = [];
  const audit = options.audit ?? {};
  const record = (change: ChangeResult) => {
    const why = audit.why?.[change.index];
    const result: ChangeResult = { ...change, cause: why?.cause ?? 'unknown', ...(why?.fields ? { changed: why.fields } : {}) };
    results.push(result);
    options.onResult?.(result);
    const objectClass = planClassOf(result.change);
    const fields = { index: result.index, action: result.change.action, kind: result.change.kind, client: objectClass.client(result.change) };
    // The audit trail: one line per write, whatever became of it.
    const entry = { index: result.index, ...auditEntry(result, audit) };
    if (result.status === 'failed') logger.error({ ...entry, code: result.errorCode, detail: result.detail }, 'change failed');
    else if (result.status === 'skipped') logger.warn({ ...entry, detail: result.detail }, 'write skipped');
    else logger.info({ ...entry, ...(result.detail ? { detail: result.detail } : {}) }, 'write');
    if (result.rewrites?.length) {
      const where = objectClass.firstSource(result.change) ?? {};
      for (const rewrite of result.rewrites) {
        logger.warn({ ...fields, ...where, id: result.id, ...rewrite }, 'the service stored a field differently than declared; its mark keeps it recognized');
      }
    }
  };

  const indexed = plan.changes.map((change, index) => ({ change, index }));
  const of = groupByAction(indexed.map((item) => ({ ...item, action: item.change.action })));
  const run: ChangeRun = { context, stop: options.stop, record, concurrency: options.concurrency ?? 8 };
  const write = (item: Indexed, referencedId?: number) =>
    runChange(item, run, () => applyClassOf(item.change).write(item.change, context, referencedId));
  const writeAll = (items: readonly Indexed[]) => runBounded(items.map((item) => () => write(item)), run.concurrency);
  const creates = of('create');

  // A kind the service keeps one per scope, replaced: the old object goes first (see CreateRule.deleteFirst).
  const first = new Set(creates.flatMap(({ change }) => {
    const planSide = planClassOf(change);
    return hasReplacements(planSide) ? planSide.deletesFirst(change) : [];
  }));
  const [deletesFirst, deletes] = partition(of('delete'), ({ change }) => {
    const ids = planClassOf(change).deletedIds(change);
    return ids.length > 0 && ids.every((id) => first.has(id));
  });
  await runDeletes(deletesFirst, run, new Set());
  // A create naming another create's object (an ignore_regex rule its regex) waits for that create's answer.
  const [dependent, independent] = partition(creates, ({ change }) => {
    const objectClass = applyClassOf(change);
    return hasReferences(objectClass) && objectClass.waitsFor(change) !== undefined;
  });
  await writeAll(independent);
  await runBounded(dependent.map((item) => () => {
    const objectClass = applyClassOf(item.change);
    // Sound: only a class with references has dependent creates (the partition above).
    if (!hasReferences(objectClass)) return write(item);
    const referencedId = objectClass.referencedId(item.change, results);
    if (referencedId !== undefined) return write(item, referencedId);
    const what = objectClass.waitsFor(item.change) ?? 'what it names';
    record({ ...item, status: 'failed', errorCode: 'dependency', detail: `${what} was not created, so it has no id to point at` });
    return Promise.resolve();
  }), run.concurrency);
  // Adoptions write the mark on objects that exist; an adopted object whose values move lists is deleted after.
  await writeAll([...of('update'), ...of('adopt')]);

  // A replaced object is deleted only once its replacement exists (or, adopted, once its values are ours).
  const failedWrites = results.filter((result) => result.status !== 'applied' && result.status !== 'already-done');
  const blockedIds = new Set(failedWrites.flatMap(({ change }) => {
    const planSide = planClassOf(change);
    return hasReplacements(planSide) ? planSide.takesOver(change) : [];
  }));
  await runDeletes(deletes, run, blockedIds);

  // Stopped: exit promptly, without starting even a listing call to wait for.
  const reads = new ListingReads(options.api, options.stop);
  const settled = options.stop?.aborted ? false : await waitForListings(results, {
    reads,
    owner: plan.owner,
    timeoutMs: options.settleTimeoutMs ?? 30_000,
    intervalMs: options.settleIntervalMs ?? 1_000,
    stop: options.stop,
  });
  if (!settled && !options.stop?.aborted) logger.warn({ timeoutMs: options.settleTimeoutMs ?? 30_000 }, 'the listings do not show every write yet; the next plan may lag behind');
  // Only once the listings show this run's writes: its own copies must be there to compare with.
  const copies = settled && (options.settleTimeoutMs ?? 30_000) > 0 && !options.stop?.aborted
    ? await removeConcurrentCopies(results, { reads, owner: plan.owner, ...(options.stop ? { stop: options.stop } : {}) })
    : [];
  reportCopies(copies, plan.owner, audit, logger);
  return summarize(results, {
    calls: options.api.http.totalCalls - callsBefore, durationMs: Date.now() - started, settled, concurrentCopies: copies,
    ...(audit.revision !== undefined ? { revision: audit.revision } : {}),
    ...(audit.unknownCause !== undefined && results.some((result) => result.cause === 'unknown') ? { unknownCause: audit.unknownCause } : {}),
  });
}

/** A warning, and one audit line per copy deleted, with the cause `concurrent-writer`. */
function reportCopies(copies: readonly ConcurrentCopy[], owner: string, audit: AuditContext, logger: Logger): void {
  if (copies.length === 0) return;
  logger.warn({ owner, copies: copies.length }, `another writer of owner "${owner}" created the same objects at the same time; kept the lowest id of each and deleted ${copies.length} cop${copies.length === 1 ? 'y' : 'ies'} (keep one writer per account: see the operations guide)`);
  for (const copy of copies) {
    logger.info({
      action: 'delete', kind: copy.kind, client: copy.client, id: copy.id, kept: copy.kept,
      ...(copy.name !== undefined ? { name: copy.name } : {}), ...(copy.values ? { values: copy.values, list: copy.list } : {}),
      cause: 'concurrent-writer', status: 'applied', ...(audit.revision !== undefined ? { revision: audit.revision } : {}),
    }, 'write');
  }
}

/** A shorter settle wait asks for a shorter look too (tests, impatient callers); never longer than the default. */
function verifyTimeoutFor(settleTimeoutMs: number | undefined): number {
  return settleTimeoutMs !== undefined && settleTimeoutMs > 0 ? Math.min(settleTimeoutMs, DEFAULT_VERIFY_TIMEOUT_MS) : DEFAULT_VERIFY_TIMEOUT_MS;
}

/** The deletes of a phase, class by class in plan order (rules before IP entries). */
async function runDeletes(items: readonly Indexed[], run: ChangeRun, blocked: ReadonlySet<number>): Promise<void> {
  const byKind = groupByClass(items.map((item) => ({ kind: item.change.kind, item })));
  for (const kind of classesInPlanOrder()) {
    const group = byKind.get(kind);
    if (group) await applyClass(kind).runDeletes(group.map((g) => g.item), run, blocked);
  }
}
