/**
 * Executes a plan: every create first (bounded concurrency, the retry policy in
 * the client), then the updates in place, then the deletes (a client's rule
 * deletes batched), skipping any delete whose replacement failed so protection
 * never lapses. A stop request lets calls in flight finish and starts
 * no new ones. Returns a per-change report; it never throws for a failed change.
 */
import { auditEntry, type AuditContext } from '../audit/entry.js';
import { runBounded } from '../concurrency.js';
import { InternalError, isRampartError } from '../errors.js';
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import { RULE_DELETE_BATCH } from '../plan/plan.js';
import type { Plan, PlanChange, PlanCreateRule, PlanDeleteIp, PlanDeleteRule } from '../plan/types.js';
import type { ServiceApi } from '../api/service.js';
import { adoptIp, createIp, createRule, deleteIp, deleteRules, updateRule, type ExecuteContext, type Outcome } from './execute.js';
import type { ChangeResult } from '../audit/change-result.js';
import { type ApplyReport, summarize } from './results.js';
import { removeConcurrentCopies, type ConcurrentCopy } from './concurrent-copies.js';
import { waitForListings } from './settle.js';
import type { WriteJournal } from '../live/write-journal.js';
import { appendTo } from '../plan/append.js';

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
    const fields = { index: result.index, action: result.change.action, kind: result.change.kind, client: result.change.client };
    // The audit trail: one line per write, whatever became of it.
    const entry = { index: result.index, ...auditEntry(result, audit) };
    if (result.status === 'failed') logger.error({ ...entry, code: result.errorCode, detail: result.detail }, 'change failed');
    else if (result.status === 'skipped') logger.warn({ ...entry, detail: result.detail }, 'write skipped');
    else logger.info({ ...entry, ...(result.detail ? { detail: result.detail } : {}) }, 'write');
    if (result.rewrites?.length) {
      const where = result.change.action === 'create' ? { file: result.change.file, line: result.change.line, col: result.change.col, name: result.change.name } : {};
      for (const rewrite of result.rewrites) {
        logger.warn({ ...fields, ...where, id: result.id, ...rewrite }, 'the service stored a field differently than declared; its mark keeps it recognized');
      }
    }
  };

  const indexed = plan.changes.map((change, index) => ({ change, index }));
  const of = <A extends PlanChange['action'], K extends PlanChange['kind']>(action: A, kind?: K) =>
    indexed.filter((item): item is Indexed<Extract<PlanChange, { action: A; kind: K }>> =>
      item.change.action === action && (kind === undefined || item.change.kind === kind));
  const ruleDeletes = of('delete', 'rule');
  const deleteFirst = new Set(of('create', 'rule').flatMap(({ change }) => (change.delete_first ? (change.replaces ?? []) : [])));
  const concurrency = options.concurrency ?? 8;
  const runAll = (items: readonly Indexed[]) =>
    runBounded(items.map(({ change, index }) => () => run(change, index, context, options.stop, record)), concurrency);

  // A kind the service keeps one per scope, replaced: the old rule goes first (see CreateRule.deleteFirst).
  await runRuleDeletes(ruleDeletes.filter(({ change }) => deleteFirst.has(change.id)), context, options.stop, record, concurrency);
  // An ignore_regex rule naming a regex the plan creates waits for that create's regex_id.
  const [dependent, independent] = partition(of('create'), ({ change }) => regexRuleOf(change) !== undefined);
  await runAll(independent);
  await runBounded(dependent.map(({ change, index }) => () => {
    const regexId = change.kind === 'rule' ? createdRegexId(change, results) : undefined;
    if (regexId === undefined) {
      record({ index, change, status: 'failed', errorCode: 'dependency', detail: `its regex rule "${String(regexRuleOf(change))}" was not created, so it has no regex_id to point at` });
      return Promise.resolve();
    }
    return run(change, index, context, options.stop, record, undefined, regexId);
  }), concurrency);
  // Adoptions write the mark on objects that exist; an adopted object whose values move lists is deleted after.
  await runAll([...of('update'), ...of('adopt')]);

  // A replaced object is deleted only once its replacement exists (or, adopted, once its values are ours).
  const failedWrites = results.filter((result) => result.status !== 'applied' && result.status !== 'already-done');
  const blockedIds = new Set(failedWrites.flatMap(({ change }) => {
    if (change.action === 'create') return change.replaces ?? [];
    return change.action === 'adopt' && change.kind === 'ip' ? change.ids : [];
  }));
  const [blocked, deletable] = partition(ruleDeletes.filter(({ change }) => !deleteFirst.has(change.id)), ({ change }) => blockedIds.has(change.id));
  for (const { change, index } of blocked) record({ index, change, status: 'skipped', detail: `its replacement was not created; rule ${change.id} stays` });
  await runRuleDeletes(deletable, context, options.stop, record, concurrency);
  await runBounded(of('delete', 'ip').map(({ change, index }) => () => run(change, index, context, options.stop, record, blockedIds)), concurrency);

  // Stopped: exit promptly, without starting even a listing call to wait for.
  const settled = options.stop?.aborted ? false : await waitForListings(results, {
    api: options.api,
    owner: plan.owner,
    timeoutMs: options.settleTimeoutMs ?? 30_000,
    intervalMs: options.settleIntervalMs ?? 1_000,
    stop: options.stop,
  });
  if (!settled && !options.stop?.aborted) logger.warn({ timeoutMs: options.settleTimeoutMs ?? 30_000 }, 'the listings do not show every write yet; the next plan may lag behind');
  // Only once the listings show this run's writes: its own copies must be there to compare with.
  const copies = settled && (options.settleTimeoutMs ?? 30_000) > 0 && !options.stop?.aborted
    ? await removeConcurrentCopies(results, { api: options.api, owner: plan.owner, ...(options.stop ? { stop: options.stop } : {}) })
    : [];
  reportCopies(copies, plan.owner, audit, logger);
  return summarize(results, {
    calls: options.api.http.totalCalls - callsBefore, durationMs: Date.now() - started, settled, concurrentCopies: copies,
    ...(audit.revision !== undefined ? { revision: audit.revision } : {}),
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

/** The regex rule an `ignore_regex` create names, when it waits for the regex's create. */
function regexRuleOf(change: PlanChange): string | undefined {
  const name = change.kind === 'rule' && change.action === 'create' ? change.rule.fields.regex_rule : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** The regex_id the create of the named regex rule (same client, file and application) answered. */
function createdRegexId(change: PlanCreateRule, results: readonly ChangeResult[]): number | undefined {
  const target = results.find(({ change: c, status }) =>
    status === 'applied' && c.action === 'create' && c.kind === 'rule' && c.rule.kind === 'regex' && c.client === change.client
    && c.file === change.file && c.name === regexRuleOf(change) && JSON.stringify(c.application) === JSON.stringify(change.application));
  return target?.regexId;
}

async function run(
  change: PlanChange,
  index: number,
  context: ExecuteContext,
  stop: AbortSignal | undefined,
  record: (result: ChangeResult) => void,
  blockedIpIds?: ReadonlySet<number>,
  regexId?: number,
): Promise<void> {
  if (stop?.aborted) {
    record({ index, change, status: 'skipped', detail: 'stopped before this change' });
    return;
  }
  try {
    const outcome = await execute(change, context, blockedIpIds, regexId);
    record({ index, change, ...outcome });
  } catch (error) {
    record({ index, change, ...failure(error) });
  }
}

interface Indexed<C extends PlanChange = PlanChange> {
  readonly change: C;
  readonly index: number;
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

/** Rule deletes of one client go in calls of up to RULE_DELETE_BATCH ids; each change gets its own result. */
async function runRuleDeletes(
  items: readonly Indexed<PlanDeleteRule>[],
  context: ExecuteContext,
  stop: AbortSignal | undefined,
  record: (result: ChangeResult) => void,
  concurrency: number,
): Promise<void> {
  // A journaled create whose id we never heard: nothing to delete until the listing shows it.
  const [placeholders, real] = partition(items, ({ change }) => change.id < 0);
  for (const { change, index } of placeholders) record({ index, change, status: 'already-done', detail: 'not listed yet' });
  const byClient = new Map<number, Indexed<PlanDeleteRule>[]>();
  for (const item of real) appendTo(byClient, item.change.client, item);
  const batches = [...byClient.entries()].flatMap(([client, list]) =>
    Array.from({ length: Math.ceil(list.length / RULE_DELETE_BATCH) }, (_, i) => ({ client, list: list.slice(i * RULE_DELETE_BATCH, (i + 1) * RULE_DELETE_BATCH) })));
  await runBounded(batches.map(({ client, list }) => async () => {
    if (stop?.aborted) {
      for (const { change, index } of list) record({ index, change, status: 'skipped', detail: 'stopped before this change' });
      return;
    }
    try {
      const deleted = await deleteRules(client, list.map(({ change }) => change.id), context);
      for (const { change, index } of list) {
        record(deleted.has(change.id) ? { index, change, status: 'applied' } : { index, change, status: 'already-done', detail: 'already gone' });
      }
    } catch (error) {
      for (const { change, index } of list) record({ index, change, ...failure(error) });
    }
  }), concurrency);
}

function failure(error: unknown): Pick<ChangeResult, 'status' | 'errorCode' | 'detail'> {
  return {
    status: 'failed',
    errorCode: isRampartError(error) ? error.code : 'internal',
    detail: error instanceof Error ? error.message : String(error),
  };
}

function execute(
  change: PlanChange,
  context: ExecuteContext,
  blockedIpIds?: ReadonlySet<number>,
  regexId?: number,
): Promise<Outcome | { status: 'skipped'; detail: string }> {
  if (change.action === 'create') return change.kind === 'rule' ? createRule(change, context, regexId) : createIp(change, context);
  if (change.action === 'update') return updateRule(change, context);
  if (change.action === 'adopt') return change.kind === 'rule' ? updateRule(change, context) : adoptIp(change, context);
  if (change.kind === 'rule') throw new InternalError('rule deletes run in batches (runRuleDeletes)');
  const ids = deletableIds(change, blockedIpIds);
  if (ids.length === 0) return Promise.resolve({ status: 'skipped', detail: 'every object is kept: a create it depends on failed' });
  const kept = change.ids.length - ids.length;
  const outcome = deleteIp(change, ids, context);
  return kept === 0 ? outcome : outcome.then((done) => ({ ...done, detail: `${kept} object(s) kept: a create they depend on failed` }));
}

/** Objects whose values a failed forced create should have moved out first stay. */
function deletableIds(change: PlanDeleteIp, blocked: ReadonlySet<number> = new Set()): number[] {
  return change.ids.filter((id) => id >= 0 && !blocked.has(id));
}
