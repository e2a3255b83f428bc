/**
 * The daemon's Prometheus metrics, on a registry of their own so tests (and a
 * library caller) can make several. Names are part of the user contract.
 */
import type * as PromClient from 'prom-client';
import { requireCommonJs } from '../commonjs.js';
import { OBJECT_ACTIONS, type ObjectAction, type ObjectCounts } from '../plan/counts.js';
import type { CycleResult } from '../reconcile/outcome.js';

const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = requireCommonJs('prom-client') as typeof PromClient;

export type ChangeAction = ObjectAction;

export interface DaemonMetricsOptions {
  /** Reported as `rampart_build_info{version}`. */
  version?: string;
  /** Node.js process metrics (CPU, memory, event loop). Default true. */
  processMetrics?: boolean;
}

export class DaemonMetrics {
  readonly registry = new Registry();

  private readonly reconcileTotal = new Counter({
    name: 'rampart_reconcile_total',
    help: 'Reconcile cycles, by outcome.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  private readonly reconcileDuration = new Histogram({
    name: 'rampart_reconcile_duration_seconds',
    help: 'Duration of reconcile cycles in seconds.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });

  private readonly changesApplied = new Counter({
    name: 'rampart_changes_applied_total',
    help: 'Objects changed in the account (an IP entry with three countries counts three), by action (create, update, replace, delete, adopt) and object kind.',
    labelNames: ['action', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly policyValid = new Gauge({
    name: 'rampart_policy_valid',
    help: '1 when the policy files last read were valid, 0 when not.',
    registers: [this.registry],
  });

  private readonly lastSuccess = new Gauge({
    name: 'rampart_last_success_timestamp_seconds',
    help: 'Unix time of the end of the last successful cycle.',
    registers: [this.registry],
  });

  private readonly apiCalls = new Counter({
    name: 'rampart_api_calls_total',
    help: 'Calls to the service API, by route template and HTTP status (or error code).',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });

  private readonly apiRetries = new Counter({
    name: 'rampart_api_retries_total',
    help: 'Retried calls to the service API, by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  private readonly pendingChanges = new Gauge({
    name: 'rampart_plan_pending_changes',
    help: 'Objects the last cycle planned to create, update, replace, delete or adopt but did not (dry-run, refused as unsafe, failed), by action; 0 once applied or nothing to do.',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  private readonly serverRewrites = new Counter({
    name: 'rampart_server_rewrites_total',
    help: 'Creates the service stored differently from what was sent, by object kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly churnHeld = new Gauge({
    name: 'rampart_churn_held_objects',
    help: 'Declared objects the churn breaker keeps from being written: created in consecutive cycles without sticking.',
    registers: [this.registry],
  });

  private readonly writesByCause = new Counter({
    name: 'rampart_writes_by_cause_total',
    help: 'Writes made, by why (drift: a live object changed or removed outside Rampart; intent: the policies changed; unknown: no memory of the policies before) and object kind.',
    labelNames: ['cause', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly concurrentCopies = new Counter({
    name: 'rampart_concurrent_writer_copies_deleted_total',
    help: 'Copies another writer of the same owner made of what a cycle created at the same time, found after the writes and deleted (the lowest id kept), by object kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly paused = new Gauge({
    name: 'rampart_paused',
    help: '1 while a pause (.rampart-pause file or POST /pause) keeps the daemon from writing.',
    registers: [this.registry],
  });

  private readonly pausedSince = new Gauge({
    name: 'rampart_paused_since_timestamp_seconds',
    help: 'Unix time the pause in effect began (the pause file\'s modification time); 0 when not paused.',
    registers: [this.registry],
  });

  private readonly policyRevision = new Gauge({
    name: 'rampart_policy_revision_info',
    help: 'Always 1; the labels name the policy revision in effect (a git commit or a ConfigMap data directory) and where it was read from.',
    labelNames: ['revision', 'source'] as const,
    registers: [this.registry],
  });

  private readonly cycleInProgress = new Gauge({
    name: 'rampart_cycle_in_progress',
    help: '1 while a reconcile cycle runs.',
    registers: [this.registry],
  });

  private readonly buildInfo = new Gauge({
    name: 'rampart_build_info',
    help: 'Always 1; the version label tells which build runs.',
    labelNames: ['version'] as const,
    registers: [this.registry],
  });

  constructor(options: DaemonMetricsOptions = {}) {
    this.buildInfo.set({ version: options.version ?? process.env.npm_package_version ?? 'unknown' }, 1);
    this.cycleInProgress.set(0);
    this.churnHeld.set(0);
    this.paused.set(0);
    this.pausedSince.set(0);
    this.setPendingChanges({});
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** One finished cycle: its outcome and how long it took. */
  recordCycle(result: CycleResult, seconds: number): void {
    this.reconcileTotal.inc({ result });
    this.reconcileDuration.observe(seconds);
  }

  recordApplied(action: ChangeAction, kind: string, n = 1): void {
    if (n > 0) this.changesApplied.inc({ action, kind }, n);
  }

  setPolicyValid(valid: boolean): void {
    this.policyValid.set(valid ? 1 : 0);
  }

  /** `at` in milliseconds since the epoch. */
  setLastSuccess(at: number): void {
    this.lastSuccess.set(at / 1000);
  }

  recordApiCall(route: string, status: number | string): void {
    this.apiCalls.inc({ route, status: String(status) });
  }

  recordRetry(route: string): void {
    this.apiRetries.inc({ route });
  }

  /** Objects by action, the plan's vocabulary; an action left out is 0. */
  setPendingChanges(changes: ObjectCounts): void {
    for (const action of OBJECT_ACTIONS) this.pendingChanges.set({ action }, changes[action] ?? 0);
  }

  recordServerRewrite(kind: string): void {
    this.serverRewrites.inc({ kind });
  }

  setChurnHeld(count: number): void {
    this.churnHeld.set(count);
  }

  recordWriteCause(cause: string, kind: string): void {
    this.writesByCause.inc({ cause, kind });
  }

  /** Calls to the service API so far, by route and status (the status page's API health). */
  async apiCallCounts(): Promise<{ route: string; status: string; calls: number }[]> {
    const { values } = await this.apiCalls.get();
    return values
      .map((v) => ({ route: String(v.labels.route ?? ''), status: String(v.labels.status ?? ''), calls: v.value }))
      .sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : a.status < b.status ? -1 : 1));
  }

  recordConcurrentCopies(kind: string, n: number): void {
    this.concurrentCopies.inc({ kind }, n);
  }

  /** `since` in milliseconds since the epoch; undefined: not paused. */
  setPaused(since: number | undefined): void {
    this.paused.set(since === undefined ? 0 : 1);
    this.pausedSince.set(since === undefined ? 0 : since / 1000);
  }

  /** One series: the revision in effect replaces the one before. */
  setPolicyRevision(revision: { revision: string; source: string } | undefined): void {
    this.policyRevision.reset();
    if (revision) this.policyRevision.set({ revision: revision.revision, source: revision.source }, 1);
  }

  setCycleInProgress(running: boolean): void {
    this.cycleInProgress.set(running ? 1 : 0);
  }

  /** The Prometheus text exposition and its content type. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
