/**
 * Planting objects directly, bypassing validation: rules and IP objects "made in
 * the console" or by another tool, which the client must recognise as foreign.
 * Planted objects are listed at once (no lag): they existed before the test.
 */
import { NEVER_EXPIRES } from './ip/vocabulary.js';
import type { EmulatorCore } from './core.js';
import { makeObject } from './ip/handlers.js';
import { conditionSetKey } from './rules/conditions.js';
import type { ConditionRecord, HintRecord, IpObject } from './store.js';

export type HintSeed = Partial<HintRecord> & { clientid: number; type: string };

export type IpObjectSeed = Partial<IpObject> & {
  clientid: number;
  /** The values the object holds: one CIDR for ip_range, else source_values. */
  values?: string[];
};

export function seedHint(core: EmulatorCore, seed: HintSeed): HintRecord {
  const { state } = core;
  const nowSec = core.nowSeconds();
  const action: ConditionRecord[] = seed.action ?? [];
  const key = conditionSetKey(seed.clientid, action);
  let set = state.actions.get(key);
  if (!set) {
    set = { id: state.nextIds.action++, clientid: seed.clientid, conditions: action, updated_at: nowSec };
    state.actions.set(key, set);
  }
  const id = seed.id ?? state.nextIds.hint;
  state.nextIds.hint = Math.max(state.nextIds.hint, id + 1);
  const hint: HintRecord = {
    point: [], attack_type: null, regex: null, regex_id: null, mode: null, comment: null,
    validated: false, variativity_disabled: false, active: true, title: null, set: null, system: false, create_time: nowSec, updated_at: nowSec,
    ...seed,
    id,
    actionid: set.id,
    action,
  };
  state.hints.set(id, { record: hint, listedFromMs: 0 });
  core.changed();
  return structuredClone(hint);
}

export function seedIpObject(core: EmulatorCore, seed: IpObjectSeed): IpObject {
  const { state } = core;
  const { values, ...fields } = seed;
  const id = seed.id ?? state.nextIds.ip;
  state.nextIds.ip = Math.max(state.nextIds.ip, id + 1);
  const ruleType = seed.rule_type ?? 'ip_range';
  const base = makeObject(
    {
      clientid: seed.clientid,
      list: seed.list ?? 'black',
      rule_type: ruleType,
      pools: seed.pools ?? [0],
      expired_at: seed.expired_at ?? NEVER_EXPIRES,
      reason: seed.reason ?? null,
    },
    values ?? (ruleType === 'ip_range' ? [seed.subnet ?? '192.0.2.1/32'] : (seed.source_values ?? [])),
    id,
    core.nowSeconds(),
  );
  const object: IpObject = { ...base, author: 'console', ...fields, id };
  state.ipObjects.set(id, { record: object, listedFromMs: 0 });
  core.changed();
  return structuredClone(object);
}
