/**
 * One daemon cycle, start to end: read a consistent snapshot of the policies,
 * plan against the full live state (overlaid with our own recent writes), guard,
 * apply, and return exactly one outcome. An invalid policy keeps the last good
 * desired state: nothing new is applied, drift is still corrected, the error is
 * reported. A file change that did not change the content is skipped.
 * A pause (a `.rampart-pause` file, or the endpoint's switch) plans and reports
 * but writes nothing. Every write is logged with why it was needed and the
 * policy revision (audit/), against the memory of the last converged cycle.
 */
import { withDeadline } from '../api/deadline.js';
import { declaredFingerprints, explainChanges, type DeclaredFingerprints } from '../audit/cause.js';
import type { ConvergedMemory } from '../audit/converged-memory.js';
import { auditEntry } from '../audit/entry.js';
import { applyPlan } from '../apply/apply.js';
import { objectsDone } from '../apply/render-report.js';
import { changeCounts, summaryCounts, type ObjectAction } from '../plan/counts.js';
import type { WriteJournal } from '../live/write-journal.js';
import type { ServiceApi } from '../api/service.js';
import { ApplyFailedError, PolicyInvalidError, UnsafePlanError, UsageError } from '../errors.js';
import { checkSafety, hasChanges } from '../plan/index.js';
import { loadPolicies } from '../policy/index.js';
import type { PolicyLoadResult } from '../policy/types.js';
import { readPauseFile, type Pause } from '../policy/pause.js';
import { readPolicyRevision, type PolicyRevision } from '../policy/revision.js';
import type { RuleUpdates } from '../plan/diff-rules.js';
import { ListingSizeMemory } from '../live/listing-sizes.js';
import { ChurnBreaker } from './churn-breaker.js';
import type { CycleContext, CycleOutcome } from './outcome.js';
import { emptyPolicies, NOTHING_DECLARED, prepare } from './prepare.js';
import { readConsistentSnapshot } from './snapshot.js';

export interface CycleSettings {
  readonly policies: string;
  readonly api: ServiceApi;
  readonly owner: string;
  readonly journal: WriteJournal;
  readonly dryRun: boolean;
  readonly force: boolean;
  readonly maxDeleteShare: number;
  readonly minOwned: number;
  /** `--allow-empty`: an empty or missing policy directory manages nothing instead of keeping the daemon not ready. */
  readonly allowEmpty?: boolean;
  /** `run --adopt`: unmanaged objects equal to (or blocking) declarations become Rampart's. */
  readonly adopt?: boolean;
  /** Default `update`. */
  readonly ruleUpdates?: RuleUpdates;
  readonly concurrency: number;
  readonly settleTimeoutMs: number;
  /** `run --once`: a bound on reading the live state (the daemon retries on its own schedule). */
  readonly readDeadline?: { readonly ms: number; readonly target: string };
  /** A pause set by other means than the file (the `POST /pause` endpoint). */
  readonly pause?: () => Pause | undefined;
  /** The last converged run's declarations on disk: read before the first write, kept after each convergence. */
  readonly memory?: ConvergedMemory;
}

/** Reasons that ask for a full resync even when the files did not change. */
const RESYNC_REASONS = new Set(['initial', 'resync', 'retry after failure', 'once']);

type GoodPolicies = PolicyLoadResult & { desired: NonNullable<PolicyLoadResult['desired']>; revision?: PolicyRevision };

export function createCycle(settings: CycleSettings): (context: CycleContext) => Promise<CycleOutcome> {
  let lastGood: GoodPolicies | undefined;
  let lastConvergedDigest: string | undefined;
  /** What the last converged cycle declared: tells drift from intent (audit/cause.ts). */
  let converged: DeclaredFingerprints | undefined;
  /** The memory on disk is read once, before the first cycle that writes. */
  let remembered = false;
  const convergedOn = async (declared: DeclaredFingerprints): Promise<void> => {
    converged = declared;
    await settings.memory?.save(declared);
  };
  /** The pause the last cycle saw: a change of it is worth a cycle even when the policies are the same. */
  let lastPauseKey = '';
  /** When this process first saw the pause in effect: a git-sync checkout gives the file a new time on every commit. */
  let pausedSince: number | undefined;
  const breaker = new ChurnBreaker();
  const listingSizes = new ListingSizeMemory();

  return async (context) => {
    // The revision read so far rides on a failure too: /readyz and the logs say which commit failed.
    const seen: { revision?: PolicyRevision; readRevision?: PolicyRevision } = {};
    try {
      return { ...await runCycle(context, seen), ...seen };
    } catch (error) {
      return { result: 'failed', error, ...seen };
    }
  };

  async function runCycle({ reasons, signal, logger, metrics }: CycleContext, seen: { revision?: PolicyRevision; readRevision?: PolicyRevision }): Promise<CycleOutcome> {
    const snapshot = await readConsistentSnapshot(settings.policies, (dir) => loadPolicies(dir));
    const readRevision = snapshot.exists ? await readPolicyRevision(snapshot.root) : undefined;
    let invalid: PolicyInvalidError | undefined;
    // A missing directory declares nothing; with --allow-empty that is a valid (empty) desired state.
    const desired = snapshot.desired ?? (snapshot.exists ? undefined : NOTHING_DECLARED);
    const empty = desired && !settings.allowEmpty ? emptyPolicies(settings.policies, snapshot.exists, desired) : undefined;
    if (empty) {
      invalid = new PolicyInvalidError(snapshot.exists ? empty : `policy directory ${settings.policies} does not exist (yet); nothing is deleted`);
    } else if (!desired) {
      const errors = snapshot.diagnostics.filter((d) => d.severity === 'error');
      for (const d of errors.slice(0, 20)) logger.error({ file: d.file, line: d.line, col: d.col, code: d.code }, d.message);
      const [first] = errors;
      const where = first ? ` (first: ${first.file}:${first.line}:${first.col}: ${first.message})` : '';
      const keeping = lastGood ? 'keeping the last good policies' : 'nothing is applied';
      invalid = new PolicyInvalidError(`${errors.length} policy error(s); ${keeping}${where}`);
    } else {
      lastGood = { ...snapshot, desired, ...(readRevision ? { revision: readRevision } : {}) };
    }
    if (lastGood?.revision) seen.revision = lastGood.revision;
    if (readRevision && readRevision.revision !== lastGood?.revision?.revision) seen.readRevision = readRevision;
    // Known now, whatever the API does next: a cycle that then fails on the API must not report valid files as invalid.
    metrics?.setPolicyValid(invalid === undefined);
    const found = (snapshot.exists ? await readPauseFile(snapshot.root) : undefined) ?? settings.pause?.();
    pausedSince = found ? Math.min(pausedSince ?? found.since, found.since) : undefined;
    const paused = found && pausedSince !== undefined ? { ...found, since: pausedSince } : undefined;
    const pauseKey = paused ? `${paused.by}|${paused.reason}` : '';
    const pauseChanged = pauseKey !== lastPauseKey;
    lastPauseKey = pauseKey;
    if (invalid && !lastGood) return { result: 'invalid', error: invalid, ...(paused ? { paused } : {}) };
    const policy = lastGood;
    if (!policy) throw new UsageError('unreachable: no policies');

    if (paused && pauseChanged) logger.warn({ reason: paused.reason, by: paused.by, since: new Date(paused.since).toISOString() }, 'paused: planning and reporting only, nothing is written');
    else if (!paused && pauseChanged) logger.warn('pause lifted: writes resume');

    const onlyFileEvents = !reasons.some((reason) => RESYNC_REASONS.has(reason));
    if (!invalid && onlyFileEvents && !pauseChanged && !paused && policy.digest === lastConvergedDigest) {
      logger.info({ digest: policy.digest }, 'policy content unchanged; cycle skipped');
      return { result: 'skipped' };
    }

    const read = (readSignal: AbortSignal) => prepare({
      policies: settings.policies, load: async () => policy, allowEmpty: settings.allowEmpty, adopt: settings.adopt, api: settings.api, owner: settings.owner, journal: settings.journal, signal: readSignal, logger, listingSizes, concurrency: settings.concurrency,
      ...(settings.ruleUpdates ? { ruleUpdates: settings.ruleUpdates } : {}),
    });
    const deadline = settings.readDeadline;
    const prepared = deadline
      ? await withDeadline(deadline.ms, deadline.target, (timeout) => read(AbortSignal.any([signal, timeout])))
      : await read(signal);
    if (paused) {
      const planned = prepared.plan.summary;
      const pending = { create: planned.create + planned.replace + planned.update, delete: planned.delete };
      logger.info({ ...planned, calls: prepared.plan.api_calls, paused: paused.reason }, 'plan ready; paused, nothing is written');
      return { result: 'paused', plan: prepared.plan, changes: pending, pending, paused, ...(invalid ? { error: invalid } : {}) };
    }
    const { plan, held, newlyHeld } = settings.dryRun ? { plan: prepared.plan, held: [], newlyHeld: [] } : breaker.restrict(prepared.plan);
    metrics?.setChurnHeld(held.length);
    for (const object of newlyHeld) {
      logger.error({ ...object }, 'churn: this object was created in each of the last cycles and would be created again; it is no longer written until its declaration changes (check how the service stores it)');
    }
    const churn = held.length > 0 ? { held } : {};
    const pending = summaryCounts(plan.summary);
    logger.info({ ...plan.summary, apiCalls: plan.api_calls }, 'plan ready');
    const safety = checkSafety(plan, { maxDeleteShare: settings.maxDeleteShare, minOwned: settings.minOwned, force: settings.force });
    if (!safety.ok) return { result: 'unsafe', error: new UnsafePlanError(safety.message), plan, changes: pending };
    if (settings.dryRun) return { result: invalid ? 'invalid' : 'skipped', plan, changes: pending, pending, ...(invalid ? { error: invalid } : {}) };
    const declared = declaredFingerprints(policy.desired, policy.digest);
    if (!remembered) {
      remembered = true;
      converged ??= await settings.memory?.load();
    }
    if (!hasChanges(plan)) {
      if (!invalid && held.length === 0) {
        lastConvergedDigest = policy.digest;
        await convergedOn(declared);
      }
      if (invalid) return { result: 'invalid', error: invalid, plan };
      return held.length > 0 ? { result: 'churn', plan, ...churn } : { result: 'no-op', plan };
    }

    const report = await applyPlan(plan, {
      api: settings.api,
      concurrency: settings.concurrency,
      stop: signal,
      logger,
      journal: settings.journal,
      settleTimeoutMs: settings.settleTimeoutMs,
      audit: {
        why: explainChanges(plan, prepared.live, declared, converged),
        ...(policy.revision ? { revision: policy.revision.revision } : {}),
      },
      onResult: (result) => {
        if (result.status === 'applied') {
          for (const [action, n] of Object.entries(changeCounts(result.change))) metrics?.recordApplied(action as ObjectAction, result.change.kind, n);
          metrics?.recordWriteCause?.(result.cause ?? 'unknown', result.change.kind);
        }
        if (result.rewrites?.length) metrics?.recordServerRewrite(result.change.kind);
      },
    });
    breaker.recordApplied(report.results);
    const copies = {
      writes: report.results.map((result) => auditEntry(result, policy.revision ? { revision: policy.revision.revision } : {})),
      ...(report.concurrentCopies.length > 0 ? { concurrentCopies: countByKind(report.concurrentCopies) } : {}),
    };
    logger.info({ objects: objectsDone(report), applied: report.applied, alreadyDone: report.alreadyDone, failed: report.failed, skipped: report.skipped, apiCalls: report.calls }, 'apply finished');
    if (report.failed > 0 || report.skipped > 0) {
      const failure = report.results.find((result) => result.status === 'failed');
      return {
        result: 'failed',
        plan,
        changes: pending,
        ...churn,
        error: new ApplyFailedError(`${report.failed} change(s) failed, ${report.skipped} not attempted${failure ? `; first: ${failure.detail}` : ''}`),
        ...copies,
      };
    }
    if (invalid) return { result: 'invalid', error: invalid, plan, changes: pending, ...copies };
    if (held.length > 0) return { result: 'churn', plan, changes: pending, ...churn, ...copies };
    lastConvergedDigest = policy.digest;
    await convergedOn(declared);
    return { result: 'success', plan, changes: pending, ...copies };
  }
}

function countByKind(copies: readonly { readonly kind: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const copy of copies) counts[copy.kind] = (counts[copy.kind] ?? 0) + 1;
  return counts;
}
