/**
 * Why a write was needed: the policies changed (`intent`), or a live object
 * was changed or removed outside Rampart while its declaration stayed the same
 * (`drift`). Pure.
 *
 * Two witnesses, used in this order:
 * 1. The owner mark. An owned object's `fp:` is the fingerprint of the
 *    declaration it was written from (model/fingerprint.ts). A write that
 *    touches an object whose fingerprint is still declared repairs the object:
 *    drift. One whose fingerprint is declared no more follows a changed
 *    declaration: intent. This needs no memory, so `apply` uses it too.
 * 2. Memory of the last converged run (the daemon's, kept on disk beside the
 *    journal for a restart and a one-shot `apply`: converged-memory.ts): the
 *    digest and the fingerprints it had declared. Policies with the same digest mean every
 *    write is drift; a create of a fingerprint declared then means its copy
 *    vanished: drift; a fingerprint new since then: intent.
 * A plain create with neither witness (nothing remembered: no journal, or
 * its memory lost) cannot be told apart: a new declaration and an object deleted in the
 * console look the same. It is `unknown`, never guessed.
 */
import { ipFingerprint, ipWriteKey, ruleFingerprint } from '../model/fingerprint.js';
import type { LiveIpEntry } from '../model/ip.js';
import { conditionKey, fieldValues, pointKey, sortConditions, type LiveRule, type Rule } from '../model/rule.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { ipEntriesFromPlan, ruleFromPlan } from '../plan/objects.js';
import type { Plan, PlanChange, PlanCreateIp, PlanCreateRule, PlanDeleteIp, PlanDeleteRule, PlanUpdateRule } from '../plan/types.js';
import { appendTo } from '../plan/append.js';
import { rememberedIpKey } from './converged-memory.js';

export type WriteCause = 'intent' | 'drift' | 'unknown';

export const WRITE_CAUSES: readonly WriteCause[] = ['intent', 'drift', 'unknown'];

/** What a cycle declared: its policies' digest and the write keys of every declared object. */
export interface DeclaredFingerprints {
  readonly digest: string;
  readonly rules: ReadonlySet<string>;
  /** `rememberedIpKey(ipWriteKey(entry))` of every declared IP entry. */
  readonly ip: ReadonlySet<string>;
}

/** Why one change is made, and which fields it changes where the plan does not already say. */
export interface ChangeWhy {
  readonly cause: WriteCause;
  /** Fields a replacement or a forced IP create changes (an update names its own). */
  readonly fields?: readonly string[];
}

export function declaredFingerprints(desired: DesiredState, digest: string): DeclaredFingerprints {
  return {
    digest,
    rules: new Set(desired.rules.map(ruleFingerprint)),
    ip: new Set(desired.ipEntries.map((entry) => rememberedIpKey(ipWriteKey(entry)))),
  };
}

/** One entry per change of `plan`, in its order. `previous`: the last converged cycle's, when remembered. */
export function explainChanges(
  plan: Plan,
  live: LiveState,
  current: DeclaredFingerprints,
  previous?: DeclaredFingerprints,
): ChangeWhy[] {
  if (previous && previous.digest === current.digest) {
    return plan.changes.map((change) => ({ cause: change.action === 'adopt' ? 'intent' : 'drift', ...fieldsOf(change, live) }));
  }
  const rulesById = new Map(live.rules.map((rule) => [rule.id, rule]));
  const ipById = new Map<number, LiveIpEntry[]>();
  for (const entry of live.ipEntries) appendTo(ipById, entry.id, entry);
  const context: Context = { rulesById, ipById, current, previous };

  const why = plan.changes.map((change): ChangeWhy | undefined => {
    if (change.kind === 'rule' && change.action === 'create') return { cause: ruleCreateCause(change, context), ...fieldsOf(change, live) };
    if (change.action === 'update') return { cause: ruleUpdateCause(change, context) };
    // Taking an object over is asked for (`--adopt`): the policies' doing, never a repair.
    if (change.action === 'adopt') return { cause: 'intent' };
    if (change.kind === 'ip' && change.action === 'delete') return { cause: ipDeleteCause(change) };
    if (change.kind === 'rule' && change.action === 'delete') return change.reason === 'replaced' ? undefined : { cause: ruleDeleteCause(change, context) };
    return undefined;
  });
  // Second pass: a replaced rule goes for the reason its replacement comes; a forced IP create moving
  // values out of a doomed object, for the reason that object goes.
  return plan.changes.map((change, index) => {
    const known = why[index];
    if (known) return known;
    if (change.kind === 'rule' && change.action === 'delete') {
      const by = plan.changes.findIndex((c) => c.action === 'create' && c.kind === 'rule' && (c.replaces ?? []).includes(change.id));
      return { cause: why[by]?.cause ?? 'intent' };
    }
    if (change.kind === 'ip' && change.action === 'create') return { cause: ipCreateCause(change, plan, why, context), ...fieldsOf(change, live) };
    return { cause: 'unknown' };
  });
}

interface Context {
  readonly rulesById: ReadonlyMap<number, LiveRule>;
  readonly ipById: ReadonlyMap<number, readonly LiveIpEntry[]>;
  readonly current: DeclaredFingerprints;
  readonly previous?: DeclaredFingerprints;
}

/** Memory alone: was this declared (and converged) last time? */
function remembered(declaredThen: ((previous: DeclaredFingerprints) => boolean), previous?: DeclaredFingerprints): WriteCause {
  if (!previous) return 'unknown';
  return declaredThen(previous) ? 'drift' : 'intent';
}

function ruleCreateCause(change: PlanCreateRule, context: Context): WriteCause {
  const fingerprint = ruleFingerprint(ruleFromPlan(change.client, change.rule));
  const replaced = (change.replaces ?? []).flatMap((id) => context.rulesById.get(id) ?? []);
  if (replaced.some((rule) => rule.fingerprint === fingerprint)) return 'drift';
  if (replaced.some((rule) => rule.fingerprint !== undefined)) return 'intent';
  return remembered((p) => p.rules.has(fingerprint), context.previous);
}

function ruleUpdateCause(change: PlanUpdateRule, context: Context): WriteCause {
  const fingerprint = ruleFingerprint(ruleFromPlan(change.client, change.rule));
  const stored = context.rulesById.get(change.id)?.fingerprint;
  if (stored === fingerprint) return 'drift';
  if (stored !== undefined) return 'intent';
  return remembered((p) => p.rules.has(fingerprint), context.previous);
}

function ruleDeleteCause(change: PlanDeleteRule, context: Context): WriteCause {
  if (change.reason === 'duplicate') return 'drift';
  // Written from a declaration that is still there, yet not recognized: it was changed outside.
  const stored = context.rulesById.get(change.id)?.fingerprint;
  return stored !== undefined && context.current.rules.has(stored) ? 'drift' : 'intent';
}

function ipDeleteCause(change: PlanDeleteIp): WriteCause {
  return change.objects.every((object) => object.reason === 'duplicate') ? 'drift' : 'intent';
}

function ipCreateCause(change: PlanCreateIp, plan: Plan, why: readonly (ChangeWhy | undefined)[], context: Context): WriteCause {
  const entries = ipEntriesFromPlan(change.client, change.object);
  const replaced = (change.replaces ?? []).flatMap((id) => context.ipById.get(id) ?? []);
  const values = new Set(entries.map((entry) => entry.value));
  const fingerprint = entries[0] ? ipFingerprint(entries[0]) : undefined;
  const sameValues = replaced.filter((entry) => values.has(entry.value));
  // The same value written from another declaration (expiry, reason): the declaration changed.
  if (sameValues.some((entry) => entry.fingerprint !== undefined && entry.fingerprint !== fingerprint)) return 'intent';
  if (replaced.length > 0) {
    // Moved out of objects this plan deletes: for the reason they go.
    const ids = new Set(change.replaces);
    const deletes = plan.changes.flatMap((c, i) => (c.kind === 'ip' && c.action === 'delete' && c.ids.some((id) => ids.has(id)) ? [why[i]?.cause] : []));
    if (deletes.includes('intent')) return 'intent';
    if (deletes.includes('drift')) return 'drift';
  }
  const keys = entries.map((entry) => rememberedIpKey(ipWriteKey(entry)));
  return remembered((p) => keys.every((key) => p.ip.has(key)), context.previous);
}

/** The fields a replacement changes, against the object it replaces. */
function fieldsOf(change: PlanChange, live: LiveState): Pick<ChangeWhy, 'fields'> {
  if (change.action !== 'create' || !change.replaces?.length) return {};
  if (change.kind === 'rule') {
    const old = live.rules.find((rule) => rule.id === change.replaces?.[0]);
    if (!old) return {};
    const fields = ruleDifferences(old, ruleFromPlan(change.client, change.rule));
    return fields.length > 0 ? { fields } : {};
  }
  const ids = new Set(change.replaces);
  const old = live.ipEntries.find((entry) => ids.has(entry.id) && change.object.values.includes(entry.value));
  if (!old) return {};
  const fields = [
    ...(old.expiresAt !== change.object.expires_at ? ['expires'] : []),
    ...((old.reason ?? '') !== (change.object.reason ?? '') ? ['reason'] : []),
  ];
  return fields.length > 0 ? { fields } : {};
}

/**
 * Policy-file names of what differs between two rules: `type`, `when`,
 * `point`, the kind's fields the new rule `to` writes (one it leaves out is
 * the service's), `comment`.
 */
function ruleDifferences(from: Rule, to: Rule): string[] {
  if (from.kind !== to.kind) return ['type'];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const a = fieldValues(from);
  const b = fieldValues(to);
  return [
    ...(same(sortConditions(from.conditions).map(conditionKey), sortConditions(to.conditions).map(conditionKey)) ? [] : ['when']),
    ...(same(from.point.map(pointKey), to.point.map(pointKey)) ? [] : ['point']),
    ...Object.keys(b).filter((name) => b[name] !== undefined).sort().filter((name) => !same(a[name], b[name])),
    ...((from.comment ?? '') === (to.comment ?? '') ? [] : ['comment']),
  ];
}
