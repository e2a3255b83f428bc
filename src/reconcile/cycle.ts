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
import type { DeclaredFingerprints } from '../audit/declared-fingerprints.js';
import type { ConvergedMemory } from '../audit/converged-memory.js';
import { auditEntry } from '../audit/entry.js';
import { objectsDone } from '../apply/render-report.js';
import { summaryCounts } from '../plan/counts.js';
import type { WriteJournal } from '../live/write-journal.js';
import type { ServiceApi } from '../api/service.js';
import { InternalError, PolicyInvalidError } from '../errors.js';
import type { Logger } from '../log.js';
import { loadPolicies } from '../policy/index.js';
import type { PolicyLoadResult } from '../policy/types.js';
import { readPauseFile, type Pause } from '../policy/pause.js';
import { readPolicyRevision, type PolicyRevision } from '../policy/revision.js';
import type { ListingKey, ListingSizes } from '../live/listing-key.js';
import { rememberListed } from '../live/listing-sizes.js';
import { holdChurn, NO_CHURN, recordCreates, type ChurnHeld, type ChurnHistory } from './churn-breaker.js';
import { MAX_PROBLEMS_KEPT, showPlan, type CycleContext, type CycleOutcome } from './outcome.js';
import { emptyPolicies, NOTHING_DECLARED, prepare, type Prepared } from './prepare.js';
import { reconcile, type Reconciled } from './reconcile.js';
import type { RunSettings } from './settings.js';
import { readConsistentSnapshot } from './snapshot.js';

export interface CycleSettings {
  readonly policies: string;
  readonly api: ServiceApi;
  /** The run's settings, as built from the flags (reconcile/settings.ts). */
  readonly settings: RunSettings;
  readonly journal: WriteJournal;
  /** `run --once`: a bound on reading the live state (the daemon retries on its own schedule). */
  readonly readDeadline?: { readonly ms: number; readonly target: string };
  /** A pause set by other means than the file (the `POST /pause` endpoint). */
  readonly pause?: () => Pause | undefined;
  /** The last converged run's declarations on disk: read before the first write, kept after each convergence. */
  readonly memory?: ConvergedMemory;
}

/** Reasons that ask for a full resync even when the files did not change. */
const RESYNC_REASONS = new Set(['initial', 'resync', 'retry after failure', 'once']);

/** What a cycle knows before it fails, reported with the failure: which revision, whether the files were valid. */
type Seen = Pick<CycleOutcome, 'revision' | 'readRevision' | 'policyValid' | 'problems'>;

type GoodPolicies = PolicyLoadResult & { desired: NonNullable<PolicyLoadResult['desired']>; revision?: PolicyRevision };

/**
 * What one cycle leaves the next, as a value: the cycle keeps no state of its
 * own. `runCycle` takes it and returns the next one beside its outcome;
 * `createCycle` holds it between cycles.
 */
export interface CycleMemory {
  /** The last valid policies: an invalid edit keeps planning from them. */
  readonly lastGood?: GoodPolicies;
  /** The digest of the policies the last converged cycle applied: a file event that leaves it unchanged is skipped. */
  readonly lastConvergedDigest?: string;
  /**
   * What the last converged cycle declared: tells drift from intent
   * (audit/cause.ts). The first cycle starts from the memory on disk, and a
   * new one is saved there by `createCycle`: the cycle itself touches no file.
   */
  readonly converged?: DeclaredFingerprints;
  /**
   * What this process last found the policies to declare (never a memory read
   * from disk). A cycle over the same policy files reuses it rather than hash
   * every declared value: it is then also the converged memory, so every write
   * is explained by the digest alone (audit/cause.ts). Keys of values that
   * expired since stay in it, harmlessly: such values are never created again.
   */
  readonly lastDeclared?: DeclaredFingerprints;
  /** The pause the last cycle saw: a change of it is worth a cycle even when the policies are the same. */
  readonly lastPauseKey: string;
  /** When this process first saw the pause in effect: a git-sync checkout gives the file a new time on every commit. */
  readonly pausedSince?: number;
  /** The creates of the last cycles, and the objects held for churning (churn-breaker.ts). */
  readonly churn: ChurnHistory;
  /** What each listing held when last read: the next read requests that many pages at once (live/listing-sizes.ts). */
  readonly listed: ListingSizes;
}

/** The results of a cycle that converged: the account matches the policies it declared. */
const CONVERGED: ReadonlySet<CycleOutcome['result']> = new Set(['success', 'no-op']);

/** A daemon's first cycle: nothing remembered yet. */
export const FIRST_CYCLE: CycleMemory = { lastPauseKey: '', churn: NO_CHURN, listed: new Map() };

/** What a cycle reads and is given: the policy files as one consistent snapshot, their revision, the pause in effect. */
export interface CycleInput {
  readonly settings: CycleSettings;
  readonly context: CycleContext;
  readonly snapshot: SnapshotRead;
  /** The pause the files or the endpoint set, before the cycle settles since when. */
  readonly pause?: Pause;
}

export interface SnapshotRead {
  readonly policy: PolicyLoadResult;
  readonly revision?: PolicyRevision;
}

export function createCycle(cycleSettings: CycleSettings): (context: CycleContext) => Promise<CycleOutcome> {
  let memory: CycleMemory | undefined;
  return async (context) => {
    let snapshot: SnapshotRead;
    let pause: Pause | undefined;
    try {
      const policy = await readConsistentSnapshot(cycleSettings.policies, (dir) => loadPolicies(dir));
      const revision = policy.exists ? await readPolicyRevision(policy.root) : undefined;
      snapshot = { policy, ...(revision ? { revision } : {}) };
      pause = (policy.exists ? await readPauseFile(policy.root) : undefined) ?? cycleSettings.pause?.();
    } catch (error) {
      return { result: 'failed', error };
    }
    // The last converged run's declarations, as a restart left them on disk: read once, before the first cycle.
    if (!memory) {
      const converged = await cycleSettings.memory?.load();
      memory = { ...FIRST_CYCLE, ...(converged ? { converged } : {}) };
    }
    const ran = await runCycle({ settings: cycleSettings, context, snapshot, ...(pause ? { pause } : {}) }, memory);
    memory = ran.memory;
    // A cycle that converged (`success`, `no-op`) keeps what it declared on disk for a restart, before the loop hears of it.
    if (CONVERGED.has(ran.outcome.result) && ran.memory.converged) await cycleSettings.memory?.save(ran.memory.converged);
    return ran.outcome;
  };
}

/**
 * One cycle from what was read and what the last one left: its outcome, and
 * what it leaves the next. A failure part-way still returns what the cycle
 * learned before it (the last good policies, the pause), and the revision it
 * read rides on the failure: /readyz and the logs say which commit failed.
 */
export async function runCycle(input: CycleInput, memory: CycleMemory): Promise<{ outcome: CycleOutcome; memory: CycleMemory }> {
  const state: CycleState = { memory, seen: {} };
  try {
    const outcome = await cycleOutcome(input, state);
    return { outcome: { ...outcome, ...state.seen }, memory: state.memory };
  } catch (error) {
    return { outcome: { result: 'failed', error, ...state.seen }, memory: state.memory };
  }
}

/** What the cycle has learned so far: what it leaves the next one, and what its outcome reports whatever happens next. */
interface CycleState {
  memory: CycleMemory;
  seen: Seen;
}

/** The cycle's steps, each learning into `state`: the policies, the pause, the plan, its writes. */
async function cycleOutcome(input: CycleInput, state: CycleState): Promise<CycleOutcome> {
  const { context: { reasons, logger }, settings: { settings } } = input;
  const { invalid } = settlePolicies(input, state);
  const pause = settlePause(input.pause, state);
  const policy = state.memory.lastGood;
  if (!policy) return { result: 'invalid', error: invalid ?? new InternalError('a cycle without policies got past the validity check'), ...(pause.paused ? { paused: pause.paused } : {}) };
  logPauseChange(pause, logger);
  const onlyFileEvents = !reasons.some((reason) => RESYNC_REASONS.has(reason));
  if (!invalid && onlyFileEvents && !pause.changed && !pause.paused && policy.digest === state.memory.lastConvergedDigest) {
    logger.info({ digest: policy.digest }, 'policy content unchanged; cycle skipped');
    return { result: 'skipped' };
  }
  const prepared = await readAndPlan(input, policy, state);
  // Nothing is written under a pause or in a dry run: nothing for the churn breaker to hold.
  const churn = settings.dryRun || pause.paused
    ? { plan: prepared.plan, held: [], newlyHeld: [], history: state.memory.churn }
    : holdChurn(state.memory.churn, prepared.plan);
  state.memory = { ...state.memory, churn: churn.history };
  for (const object of churn.newlyHeld) {
    logger.error({ ...object }, 'churn: this object was created in each of the last cycles and would be created again; it is no longer written until its declaration changes (check how the service stores it)');
  }
  const { plan } = churn;
  if (pause.paused) logger.info({ ...plan.summary, calls: plan.apiCalls, paused: pause.paused.reason }, 'plan ready; paused, nothing is written');
  else logger.info({ ...plan.summary, apiCalls: plan.apiCalls }, 'plan ready');
  const declared = state.memory.lastDeclared?.digest === policy.digest ? state.memory.lastDeclared : undefined;
  const converged = state.memory.converged;
  const done = await reconcile({
    plan, desired: policy.desired, digest: policy.digest, declared, live: prepared.live, converged: async () => converged, settings,
    api: input.settings.api, journal: input.settings.journal, stop: input.context.signal, logger, revision: policy.revision?.revision,
    nextStep: 'the next cycle tries again', pause: pause.paused,
  });
  return settleOutcome(done, { policy, churn, invalid, logger }, state);
}

/**
 * The snapshot's policies: valid ones become the last good; invalid or empty
 * ones are reported, and the last good (if any) planned from. What the cycle
 * saw of them is known now, whatever the API does next: a cycle that then
 * fails on the API must not report valid files as invalid.
 */
function settlePolicies(input: CycleInput, state: CycleState): { invalid?: PolicyInvalidError } {
  const { policy: snapshot, revision: readRevision } = input.snapshot;
  const invalid = policyProblem(input, state);
  // A missing directory declares nothing; with --allow-empty that is a valid (empty) desired state.
  const desired = snapshot.desired ?? (snapshot.exists ? undefined : NOTHING_DECLARED);
  if (!invalid && desired) state.memory = { ...state.memory, lastGood: { ...snapshot, desired, ...(readRevision ? { revision: readRevision } : {}) } };
  const { lastGood } = state.memory;
  if (lastGood?.revision) state.seen.revision = lastGood.revision;
  if (readRevision && readRevision.revision !== lastGood?.revision?.revision) state.seen.readRevision = readRevision;
  state.seen.policyValid = invalid === undefined;
  return invalid ? { invalid } : {};
}

/** Why the snapshot cannot be planned from: it declares nothing (without --allow-empty), or has errors, logged and kept for the status page. */
function policyProblem(input: CycleInput, state: CycleState): PolicyInvalidError | undefined {
  const { policy: snapshot } = input.snapshot;
  const { policies, settings } = input.settings;
  const { logger } = input.context;
  const desired = snapshot.desired ?? (snapshot.exists ? undefined : NOTHING_DECLARED);
  if (desired) {
    const empty = settings.allowEmpty ? undefined : emptyPolicies(policies, snapshot.exists, desired);
    if (!empty) return undefined;
    return new PolicyInvalidError(snapshot.exists ? empty : `policy directory ${policies} does not exist (yet); nothing is deleted`);
  }
  const errors = snapshot.diagnostics.filter((d) => d.severity === 'error');
  for (const d of errors.slice(0, 20)) logger.error({ file: d.file, line: d.line, col: d.col, code: d.code }, d.message);
  state.seen.problems = { count: errors.length, list: errors.slice(0, MAX_PROBLEMS_KEPT).map(({ file, line, col, code, message }) => ({ file, line, col, code, message })) };
  const [first] = errors;
  const where = first ? ` (first: ${first.file}:${first.line}:${first.col}: ${first.message})` : '';
  const keeping = state.memory.lastGood ? 'keeping the last good policies' : 'nothing is applied';
  return new PolicyInvalidError(`${errors.length} policy error(s); ${keeping}${where}`);
}

interface SettledPause {
  /** The pause in effect, since when this process first saw it. */
  readonly paused?: Pause;
  /** It began, ended or changed since the last cycle. */
  readonly changed: boolean;
}

/** The pause the cycle was given, dated from when this process first saw it. */
function settlePause(found: Pause | undefined, state: CycleState): SettledPause {
  const pausedSince = found ? Math.min(state.memory.pausedSince ?? found.since, found.since) : undefined;
  const paused = found && pausedSince !== undefined ? { ...found, since: pausedSince } : undefined;
  const pauseKey = paused ? `${paused.by}|${paused.reason}` : '';
  const changed = pauseKey !== state.memory.lastPauseKey;
  state.memory = { ...state.memory, lastPauseKey: pauseKey, pausedSince };
  return { ...(paused ? { paused } : {}), changed };
}

function logPauseChange(pause: SettledPause, logger: Logger): void {
  if (!pause.changed) return;
  const { paused } = pause;
  if (paused) logger.warn({ reason: paused.reason, by: paused.by, since: new Date(paused.since).toISOString() }, 'paused: planning and reporting only, nothing is written');
  else logger.warn('pause lifted: writes resume');
}

/**
 * The live state read (within `run --once`'s deadline) and the plan against
 * it. What each listing held is remembered as it is read, also when the
 * plan then fails (a conflict, the deadline): the next read predicts from it.
 */
async function readAndPlan(input: CycleInput, policy: GoodPolicies, state: CycleState): Promise<Prepared> {
  const { settings: cycleSettings, context: { signal, logger } } = input;
  const listed = new Map<ListingKey, number>();
  const read = (readSignal: AbortSignal) => prepare({
    policies: cycleSettings.policies, policy, settings: cycleSettings.settings, api: cycleSettings.api, journal: cycleSettings.journal,
    signal: readSignal, logger, lastListed: state.memory.listed, onListed: (key, objects) => listed.set(key, objects),
  });
  const deadline = cycleSettings.readDeadline;
  try {
    return deadline
      ? await withDeadline(deadline.ms, deadline.target, (timeout) => read(AbortSignal.any([signal, timeout])))
      : await read(signal);
  } finally {
    state.memory = { ...state.memory, listed: rememberListed(state.memory.listed, listed) };
  }
}

interface Planned {
  readonly policy: GoodPolicies;
  readonly churn: ChurnHeld;
  readonly invalid: PolicyInvalidError | undefined;
  readonly logger: Logger;
}

/**
 * The outcome of what `reconcile` did, and what it teaches the next cycle:
 * the creates the churn breaker follows, and, when the account now matches
 * the policies, what they declared.
 */
function settleOutcome(done: Reconciled, planned: Planned, state: CycleState): CycleOutcome {
  const { policy, churn: { plan, held }, invalid, logger } = planned;
  // What /plan and the status page show, kept until the next cycle.
  const document = showPlan(plan);
  const pending = summaryCounts(plan.summary);
  const churn = held.length > 0 ? { held } : {};
  const withInvalid = invalid ? { error: invalid } : {};
  const convergedOn = (declared: DeclaredFingerprints) => {
    state.memory = { ...state.memory, converged: declared, lastDeclared: declared, lastConvergedDigest: policy.digest };
  };
  // Each action as itself: an update held by a pause is an update (the metric people alert on during a freeze).
  if (done.result === 'paused') return { result: 'paused', plan: document, changes: pending, pending, paused: done.pause, ...withInvalid };
  if (done.result === 'unsafe') return { result: 'unsafe', error: done.error, plan: document, changes: pending, ...churn };
  if (done.result === 'dry-run') return { result: invalid ? 'invalid' : 'skipped', plan: document, changes: pending, pending, ...churn, ...withInvalid };
  if (done.result === 'no-op') {
    if (!invalid && held.length === 0) convergedOn(done.declared);
    if (invalid) return { result: 'invalid', error: invalid, plan: document, ...churn };
    return { result: held.length > 0 ? 'churn' : 'no-op', plan: document, ...churn };
  }
  const { report } = done;
  state.memory = { ...state.memory, churn: recordCreates(state.memory.churn, report.results) };
  const revision = policy.revision?.revision;
  const written = {
    results: report.results,
    writes: report.results.map((result) => auditEntry(result, revision !== undefined ? { revision } : {})),
    ...(report.concurrentCopies.length > 0 ? { concurrentCopies: countByKind(report.concurrentCopies) } : {}),
  };
  logger.info({ objects: objectsDone(report), applied: report.applied, alreadyDone: report.alreadyDone, failed: report.failed, skipped: report.skipped, apiCalls: report.calls }, 'apply finished');
  if (done.result === 'failed') return { result: 'failed', plan: document, changes: pending, ...churn, error: done.error, ...written };
  if (invalid) return { result: 'invalid', error: invalid, plan: document, changes: pending, ...churn, ...written };
  if (held.length > 0) return { result: 'churn', plan: document, changes: pending, ...churn, ...written };
  convergedOn(done.declared);
  return { result: 'success', plan: document, changes: pending, ...churn, ...written };
}

function countByKind(copies: readonly { readonly kind: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const copy of copies) counts[copy.kind] = (counts[copy.kind] ?? 0) + 1;
  return counts;
}
