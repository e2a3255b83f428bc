/**
 * The read half of a cycle, shared by plan, apply and the daemon: given the
 * policies as loaded and validated, read the live state of the clients they
 * name and compute the plan. Changes nothing. Loading is the caller's (each
 * loads once, its own way: a command before it connects, the daemon from a
 * consistent snapshot, keeping the last good policies): `loadDesired` is the
 * one way to load for those that need it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceApi } from '../api/service.js';
import type { Logger } from '../log.js';
import { NoPoliciesError, PolicyInvalidError, UnmanagedConflictError } from '../errors.js';
import type { WriteJournal } from '../live/write-journal.js';
import type { ListingKey, ListingSizes } from '../live/listing-key.js';
import { expectedListingSizes } from '../live/listing-sizes.js';
import { readApplications, type ClientApplications } from '../live/applications.js';
import { readLiveState } from '../live/read.js';
import { checkApplications } from './application-check.js';
import { useIpApiOf } from './ip-api.js';
import { readExportRecords } from './export-records.js';
import type { DesiredState, LiveState } from '../model/state.js';
import type { RunSettings } from './settings.js';
import { HeapGrowth } from '../heap-growth.js';
import { buildPlan } from '../plan/plan.js';
import { targetPlan } from '../plan/target.js';
import type { Plan } from '../plan/model.js';
import { loadPolicies } from '../policy/index.js';
import type { Diagnostic } from '../diagnostic.js';
import type { PolicyLoadResult } from '../policy/types.js';

export interface PrepareOptions {
  /** The policy directory (export records lie beside its files). */
  readonly policies: string;
  /** The policies, loaded and valid (`loadDesired`). */
  readonly policy: LoadedPolicies;
  readonly logger?: Logger;
  readonly api: ServiceApi;
  /** The run's settings (reconcile/settings.ts): owner, adoption, rule updates, empty policies, limits, concurrency. */
  readonly settings: RunSettings;
  readonly journal?: WriteJournal;
  readonly signal?: AbortSignal;
  /** What each listing held when the daemon last read it, to predict this read's pages. */
  readonly lastListed?: ListingSizes;
  /** Told how many objects each listing held as it is read (also when the plan then fails). */
  readonly onListed?: (key: ListingKey, objects: number) => void;
}

export interface Prepared {
  readonly policy: PolicyLoadResult;
  readonly desired: DesiredState;
  /** The live state as listed, before the journal's overlay. */
  readonly listed: LiveState;
  /** The live state the plan was made from. */
  readonly live: LiveState;
  readonly plan: Plan;
  /** Where the time went (wall ms): reading the live state (journal waits included), planning. */
  readonly timings: PrepareTimings;
}

export interface PrepareTimings {
  readonly readMs: number;
  readonly planMs: number;
}

/** Invalid policies: the diagnostics ride on the error so callers can print them. */
export class InvalidPoliciesError extends PolicyInvalidError {
  constructor(readonly result: PolicyLoadResult) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    super(`${errors.length} policy error(s); nothing is applied while any policy file is invalid${firstError(errors)}`);
  }
}

/** Valid policies: the load result with its desired state. */
export type LoadedPolicies = PolicyLoadResult & { desired: DesiredState };

export const NOTHING_DECLARED: DesiredState = { clients: [], rules: [], ipEntries: [] };

export interface LoadOptions {
  readonly policies: string;
  readonly allowEmpty?: boolean;
  /** Loads the files (default: `loadPolicies`). */
  readonly load?: (dir: string) => Promise<PolicyLoadResult>;
}

/** The policies of a directory, loaded and valid; throws on invalid ones, and on an empty directory unless allowed. */
export async function loadDesired(options: LoadOptions): Promise<LoadedPolicies> {
  const policy = await (options.load ?? loadPolicies)(options.policies);
  if (policy.exists && !policy.desired) throw new InvalidPoliciesError(policy);
  const desired = policy.desired ?? NOTHING_DECLARED;
  const empty = emptyPolicies(options.policies, policy.exists, desired);
  if (empty && !options.allowEmpty) throw new NoPoliciesError(empty);
  return { ...policy, desired };
}

/**
 * Why a policy directory counts as empty (missing, no files, or files that
 * name no client), or undefined. Nothing would be read or planned from it; a
 * wrong path must fail, not pass as "no changes".
 */
export function emptyPolicies(dir: string, exists: boolean, desired: DesiredState): string | undefined {
  const what = !exists ? 'does not exist' : desired.clients.length === 0 ? 'declares nothing (no policy file names a client)' : undefined;
  if (!what) return undefined;
  return `policy directory ${dir} ${what}; nothing is planned and nothing is deleted (pass --allow-empty if that is intended)`;
}

/** How often a rerun reads the listing again while creates of a killed run are unconfirmed. */
const UNCONFIRMED_POLL_MS = 2_000;

export async function prepare(options: PrepareOptions): Promise<Prepared> {
  const { settings, policy } = options;
  useIpApiOf(options.api, policy.desired);
  const loaded = performance.now();
  // Paces full collections over the read and before the plan: the read leaves its pages' garbage in the
  // old generation, and the plan would grow the heap on top of it (heap-growth.ts).
  const heap = new HeapGrowth();
  const read = (signal = options.signal) => readLiveState(options.api, policy.desired.clients, {
    signal,
    heap,
    concurrency: settings.concurrency,
    expected: expectedListingSizes(policy.desired, options.lastListed),
    ...(options.onListed ? { onListed: options.onListed } : {}),
    ...(policy.desired.clientSources ? { clientSources: policy.desired.clientSources } : {}),
  });
  // Only the accounts whose policies name an application by id: `application: all` needs no listing.
  const sources = policy.desired.applicationSources ?? [];
  const namingApplications = [...new Set(sources.map((source) => source.client))];
  // One fails, both stop: nothing is left retrying behind the error.
  const both = new AbortController();
  const stopBoth = () => both.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', stopBoth, { once: true });
  const stoppingBoth = <T>(promise: Promise<T>) => promise.catch((error: unknown) => {
    both.abort(error);
    throw error;
  });
  const [first, applications] = await Promise.all([
    stoppingBoth(read(both.signal)),
    namingApplications.length > 0 ? stoppingBoth(readApplications(options.api, namingApplications, both.signal)) : new Map<number, ClientApplications>(),
  ]).finally(() => options.signal?.removeEventListener('abort', stopBoth));
  for (const warning of checkApplications(sources, applications)) options.logger?.warn(warning);
  let listed = first;
  let live = options.journal ? options.journal.overlay(listed) : listed;
  // Creates a killed run announced but never heard back about: wait until the
  // listing shows them or they stop counting, rather than plan them as done.
  for (let waitMs = options.journal?.unconfirmedForMs(); waitMs !== undefined && options.journal; waitMs = options.journal.unconfirmedForMs()) {
    options.logger?.info({ waitMs }, 'the journal holds creates a killed run never confirmed; reading the listing again before planning');
    await sleep(Math.min(waitMs, UNCONFIRMED_POLL_MS), undefined, options.signal ? { signal: options.signal } : {});
    listed = await read();
    live = options.journal.overlay(listed);
  }
  const exported = await readExportRecords(options.policies, policy.files);
  const readDone = performance.now();
  heap.check();
  const full = buildPlan(policy.desired, live, {
    exported,
    owner: settings.owner,
    ...settings.limits,
    ruleUpdates: settings.ruleUpdates,
    adopt: settings.adopt,
    ipApi: options.api.ipApi,
  });
  const plan = settings.target ? targetPlan(full, settings.target).plan : full;
  const ms = (from: number, to: number) => Math.round(to - from);
  const timings = { readMs: ms(loaded, readDone), planMs: ms(readDone, performance.now()) };
  options.logger?.debug(timings, 'prepared');
  throwOnConflicts(plan);
  return { policy, desired: policy.desired, listed, live, plan, timings };
}

/** How many conflicts the error message lists; the rest are counted. */
const MAX_CONFLICTS_SHOWN = 20;

/** A plan an unmanaged object blocks is never shown as applicable: both objects are named, nothing is written. */
export function throwOnConflicts(plan: Plan): void {
  const conflicts = plan.conflicts ?? [];
  if (conflicts.length === 0) return;
  const lines = conflicts.slice(0, MAX_CONFLICTS_SHOWN).map((c) => `  ${c.file}:${c.line}:${c.col}: ${c.kind} ${c.name} (client ${c.client}): ${c.message}`);
  if (conflicts.length > MAX_CONFLICTS_SHOWN) lines.push(`  and ${conflicts.length - MAX_CONFLICTS_SHOWN} more`);
  throw new UnmanagedConflictError(
    `${conflicts.length} declaration(s) conflict with ${conflicts.every((c) => c.adoptable === false) ? 'objects the service keeps' : 'objects Rampart does not manage'}; nothing is written:\n${lines.join('\n')}\n` +
    // With --adopt already, what is left cannot be adopted (another owner's rule, an object holding more than is declared).
    (plan.adopt || conflicts.every((c) => c.adoptable === false)
      ? 'Adopting cannot resolve these: do as each line says.'
      : 'Run with --adopt (or `rampart adopt`) to take them over, or change them in the console.'),
  );
}

function firstError(errors: readonly Diagnostic[]): string {
  const [first] = errors;
  return first ? ` (first: ${first.file}:${first.line}:${first.col}: ${first.message})` : '';
}
