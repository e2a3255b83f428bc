/**
 * The in-process handle on a running emulator: the same powers as `/__admin/`,
 * for tests and the CLI's embedded mode.
 */
import type { Logger } from '../log.js';
import type { CallLog, CallRecord } from './calllog.js';
import type { EmulatorCore } from './core.js';
import type { ClientDemo, DemoCounts } from './demo/data.js';
import type { ActiveFault, FaultScript, FaultSpec } from './faults.js';
import { configProblem, type EmulatorConfig } from './options.js';
import { dropDueDuplicates } from './rules/scope-duplicates.js';
import { hitFromSeed, type HitRecord, type HitSeed } from './hits/records.js';
import { seedHint, seedIpObject, type HintSeed, type IpObjectSeed } from './seed.js';
import type { ApplicationRecord } from './applications/record.js';
import { emptyState, type ActionRecord, type HintRecord, type IpObject, type Stored } from './store.js';

export interface StateView {
  nowMs: number;
  nextIds: { hint: number; action: number; ip: number; regex: number };
  clockOffsetMs: number;
  /** Every stored record with its write times, deleted (still lagging) ones included. */
  hints: Stored<HintRecord>[];
  actions: ActionRecord[];
  ipObjects: Stored<IpObject>[];
}

export interface EmulatorControl {
  config(): EmulatorConfig;
  /** Changes the realism switches at run time; throws TypeError on a bad value. */
  setConfig(patch: Partial<EmulatorConfig>): EmulatorConfig;
  /** The next `count` calls of `route` fail as described. */
  addFault(fault: FaultSpec): void;
  faults(): ActiveFault[];
  clearFaults(): void;
  calls(): CallRecord[];
  /** Calls per `"METHOD /path"`. */
  counts(): Record<string, number>;
  count(route: string): number;
  resetCalls(): void;
  /** Moves the emulator clock forward (expiry, lag). */
  advanceClock(seconds: number): number;
  nowMs(): number;
  /** Empties rules, IP objects, demo data, ids, clock offset, faults and the call log; keeps config. */
  reset(): void;
  seedHint(seed: HintSeed): HintRecord;
  seedIpObject(seed: IpObjectSeed): IpObject;
  /** Adds hits the service saw (listed by `/v1/objects/hit` beside the demo ones); answers them as listed. */
  seedHits(seeds: readonly HitSeed[]): HitRecord[];
  /** Adds (or renames) an application of an account, listed by `/v1/objects/pool`. */
  seedApplication(seed: { clientid: number; id: number; name?: string; deleted?: boolean }): ApplicationRecord;
  /** Replaces an account's demo attacks/vulnerabilities with sets of these sizes. */
  seedDemo(clientid: number, counts: DemoCounts): ClientDemo;
  state(): StateView;
  /** Resolves once the data file holds every change so far. */
  flush(): Promise<void>;
}

export function createControl(deps: {
  core: EmulatorCore;
  faults: FaultScript;
  calls: CallLog;
  flush: () => Promise<void>;
  logger: Logger;
}): EmulatorControl {
  const { core, faults, calls } = deps;
  // Control calls are synchronous; their writes reach the disk in the background.
  const persistSoon = () => {
    deps.flush().catch((error: unknown) => deps.logger.error({ err: error }, 'emulator state write failed'));
  };
  let hitSerial = 0;
  return {
    config: () => ({ ...core.config }),
    setConfig(patch) {
      const problem = configProblem(patch);
      if (problem) throw new TypeError(problem);
      core.config = { ...core.config, ...patch };
      return { ...core.config };
    },
    addFault: (fault) => faults.add(fault),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    calls: () => calls.calls(),
    counts: () => calls.counts(),
    count: (route) => calls.count(route),
    resetCalls: () => calls.reset(),
    advanceClock(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new TypeError('seconds must be a non-negative number');
      core.state.clockOffsetMs += Math.round(seconds * 1000);
      core.changed();
      persistSoon();
      return core.nowMs();
    },
    nowMs: () => core.nowMs(),
    reset() {
      core.state = emptyState();
      core.demo.clear();
      core.hits.clear();
      core.applications.clear();
      faults.clear();
      calls.reset();
      core.changed();
      persistSoon();
    },
    seedHint(seed) {
      const hint = seedHint(core, seed);
      persistSoon();
      return hint;
    },
    seedIpObject(seed) {
      const object = seedIpObject(core, seed);
      persistSoon();
      return object;
    },
    seedHits(seeds) {
      return seeds.map((seed) => {
        const hit = hitFromSeed(seed, ++hitSerial, core.nowSeconds());
        // Appended in place: a benchmark seeds 100k hits in batches.
        const account = core.hits.get(seed.clientid);
        if (account) account.push(hit);
        else core.hits.set(seed.clientid, [hit]);
        return structuredClone(hit.record);
      });
    },
    seedApplication({ clientid, id, name, deleted }) {
      const app: ApplicationRecord = { id, clientid, name: name ?? `application ${id}`, deleted: deleted ?? false };
      core.applications.set(clientid, [...(core.applications.get(clientid) ?? []).filter((a) => a.id !== id), app]);
      return { ...app };
    },
    seedDemo: (clientid, counts) => structuredClone(core.demo.seed(clientid, counts, core.nowSeconds())),
    state: () => {
      dropDueDuplicates(core);
      return structuredClone({
        nowMs: core.nowMs(),
        nextIds: core.state.nextIds,
        clockOffsetMs: core.state.clockOffsetMs,
        hints: [...core.state.hints.values()],
        actions: [...core.state.actions.values()],
        ipObjects: [...core.state.ipObjects.values()],
      });
    },
    flush: () => deps.flush(),
  };
}
