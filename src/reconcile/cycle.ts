/**
 * One daemon cycle, start to end: read a consistent snapshot of the policies,
 * plan against the full live state (overlaid with our own recent writes), guard,
 * apply, and return exactly one outcome. An invalid policy keeps the last good
 * desired state: nothing new is applied, drift is still corrected, the error is
 * reported. A file change that did not change the content is skipped.
 */
import { withDeadline } from '../api/deadline.js';
import { applyPlan } from '../apply/apply.js';
import type { WriteJournal } from '../apply/write-journal.js';
import type { ServiceApi } from '../api/service.js';
import { ApplyFailedError, PolicyInvalidError, UsageError } from '../errors.js';
import { checkSafety, hasChanges } from '../plan/index.js';
import { loadPolicies } from '../policy/index.js';
import type { PolicyLoadResult } from '../policy/types.js';
import type { RuleUpdates } from '../plan/diff-rules.js';
import { ListingSizeMemory } from '../live/listing-sizes.js';
import { ChurnBreaker } from './churn-breaker.js';
import type { CycleContext, CycleOutcome } from './outcome.js';
import { prepare } from './prepare.js';
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
  /** Default `update`. */
  readonly ruleUpdates?: RuleUpdates;
  readonly concurrency: number;
  readonly settleTimeoutMs: number;
  /** `run --once`: a bound on reading the live state (the daemon retries on its own schedule). */
  readonly readDeadline?: { readonly ms: number; readonly target: string };
}

/** Reasons that ask for a full resync even when the files did not change. */
const RESYNC_REASONS = new Set(['initial', 'resync', 'retry after failure', 'once']);

export function createCycle(settings: CycleSettings): (context: CycleContext) => Promise<CycleOutcome> {
  let lastGood: (PolicyLoadResult & { desired: NonNullable<PolicyLoadResult['desired']> }) | undefined;
  let lastConvergedDigest: string | undefined;
  const breaker = new ChurnBreaker();
  const listingSizes = new ListingSizeMemory();

  return async ({ reasons, signal, logger, metrics }) => {
    const snapshot = await readConsistentSnapshot(settings.policies, (dir) => loadPolicies(dir));
    let invalid: PolicyInvalidError | undefined;
    if (!snapshot.exists) {
      invalid = new PolicyInvalidError(`policy directory ${settings.policies} does not exist (yet); nothing is deleted`);
    } else if (!snapshot.desired) {
      const errors = snapshot.diagnostics.filter((d) => d.severity === 'error');
      for (const d of errors.slice(0, 20)) logger.error({ file: d.file, line: d.line, col: d.col, code: d.code }, d.message);
      const [first] = errors;
      const where = first ? ` (first: ${first.file}:${first.line}:${first.col}: ${first.message})` : '';
      const keeping = lastGood ? 'keeping the last good policies' : 'nothing is applied';
      invalid = new PolicyInvalidError(`${errors.length} policy error(s); ${keeping}${where}`);
    } else {
      lastGood = { ...snapshot, desired: snapshot.desired };
    }
    // Known now, whatever the API does next: a cycle that then fails on the API must not report valid files as invalid.
    metrics?.setPolicyValid(invalid === undefined);
    if (invalid && !lastGood) return { result: 'invalid', error: invalid };
    const policy = lastGood;
    if (!policy) throw new UsageError('unreachable: no policies');

    const onlyFileEvents = !reasons.some((reason) => RESYNC_REASONS.has(reason));
    if (!invalid && onlyFileEvents && policy.digest === lastConvergedDigest) {
      logger.info({ digest: policy.digest }, 'policy content unchanged; cycle skipped');
      return { result: 'skipped' };
    }

    const read = (readSignal: AbortSignal) => prepare({
      policies: settings.policies, load: async () => policy, api: settings.api, owner: settings.owner, journal: settings.journal, signal: readSignal, logger, listingSizes,
      ...(settings.ruleUpdates ? { ruleUpdates: settings.ruleUpdates } : {}),
    });
    const deadline = settings.readDeadline;
    const prepared = deadline
      ? await withDeadline(deadline.ms, deadline.target, (timeout) => read(AbortSignal.any([signal, timeout])))
      : await read(signal);
    const { plan, held, newlyHeld } = settings.dryRun ? { plan: prepared.plan, held: [], newlyHeld: [] } : breaker.restrict(prepared.plan);
    metrics?.setChurnHeld(held.length);
    for (const object of newlyHeld) {
      logger.error({ ...object }, 'churn: this object was created in each of the last cycles and would be created again; it is no longer written until its declaration changes (check how the service stores it)');
    }
    const churn = held.length > 0 ? { held } : {};
    // Objects written (created, replaced or updated) and objects deleted.
    const pending = { create: plan.summary.create + plan.summary.replace + plan.summary.update, delete: plan.summary.delete };
    logger.info({ ...plan.summary, calls: plan.api_calls }, 'plan ready');
    const safety = checkSafety(plan, { maxDeleteShare: settings.maxDeleteShare, minOwned: settings.minOwned, force: settings.force });
    if (!safety.ok) return { result: 'unsafe', error: new Error(safety.message), plan, changes: pending };
    if (settings.dryRun) return { result: invalid ? 'invalid' : 'skipped', plan, changes: pending, pending, ...(invalid ? { error: invalid } : {}) };
    if (!hasChanges(plan)) {
      if (!invalid && held.length === 0) lastConvergedDigest = policy.digest;
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
      onResult: (result) => {
        if (result.status === 'applied') metrics?.recordApplied(result.change.action, result.change.kind);
        if (result.rewrites?.length) metrics?.recordServerRewrite(result.change.kind);
      },
    });
    breaker.recordApplied(report.results);
    logger.info({ applied: report.applied, alreadyDone: report.alreadyDone, failed: report.failed, skipped: report.skipped, calls: report.calls }, 'apply finished');
    if (report.failed > 0 || report.skipped > 0) {
      const failure = report.results.find((result) => result.status === 'failed');
      return {
        result: 'failed',
        plan,
        changes: pending,
        ...churn,
        error: new ApplyFailedError(`${report.failed} change(s) failed, ${report.skipped} not attempted${failure ? `; first: ${failure.detail}` : ''}`),
      };
    }
    if (invalid) return { result: 'invalid', error: invalid, plan, changes: pending };
    if (held.length > 0) return { result: 'churn', plan, changes: pending, ...churn };
    lastConvergedDigest = policy.digest;
    return { result: 'success', plan, changes: pending };
  };
}
