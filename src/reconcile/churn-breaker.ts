/**
 * The daemon's churn breaker: defence in depth behind the owner mark's
 * fingerprint. A declared object the daemon created in each of the last
 * cycles and must create yet again does not stick (the service drops it, or
 * stores it in a way even its mark does not tie back to the declaration).
 * Writing it again would loop forever, so the breaker holds it: the create is
 * left out of the plan, and so is the delete of the copy the daemon made last
 * time, so what protection exists stays. One re-creation is allowed first: a
 * single console delete right after a create is drift, not churn. The hold
 * ends when the declaration changes (another write key) or no longer needs a
 * create.
 *
 * Its history is a value the cycle's memory carries: `holdChurn` and
 * `recordCreates` each take one and return the next.
 */
import { appliedCreates, createdIds, type ChangeResult } from '../audit/change-result.js';
import { groupByAction, onAction, type ByAction } from '../model/by-action.js';
import type { Change } from '../model/change.js';
import { hasChurnHold } from '../plan/classes/class.js';
import { planClassOf } from '../plan/classes/index.js';
import type { ObjectClass } from '../model/object-class.js';
import { restrictPlan } from '../plan/plan.js';
import type { Plan } from '../plan/model.js';

/** An object the breaker keeps from being written, as reported. */
export interface HeldObject {
  readonly kind: ObjectClass;
  readonly client: number;
  readonly file: string;
  readonly line: number;
  readonly name: string;
  /** Cycles in a row whose plan wanted to create it again. */
  readonly cycles: number;
}

/** Consecutive cycles that created an object before the breaker holds it. */
export const CREATES_BEFORE_HOLD = 2;

interface Created {
  /** Consecutive cycles, up to the last one, that created it. */
  readonly cycles: number;
  readonly client: number;
  /** Ids the create made (rules: always; IP objects: where the answer listed them). */
  readonly ids: ReadonlySet<number>;
  /** For IP creates: `list|value` of each value, to find the copy when no id is known. */
  readonly values: ReadonlySet<string>;
}

interface Held {
  readonly created: Created;
  readonly object: HeldObject;
}

/** What the breaker remembers between cycles, all keyed by a create's write key. */
export interface ChurnHistory {
  /** The creates the last cycle made, with their streaks. */
  readonly created: ReadonlyMap<string, Created>;
  /** The streaks the current cycle continues: `created` as the cycle planned (an unbroken streak only). */
  readonly continuing: ReadonlyMap<string, Created>;
  readonly held: ReadonlyMap<string, Held>;
}

/** A daemon's first cycle: no create seen yet. */
export const NO_CHURN: ChurnHistory = { created: new Map(), continuing: new Map(), held: new Map() };

type Create = Extract<Change, { action: 'create' }>;

/** What a create writes, as the churn breaker keys it; undefined for a class it does not hold. */
function writeKey(change: Create): string | undefined {
  const planSide = planClassOf(change);
  return hasChurnHold(planSide) ? planSide.writeKey(change) : undefined;
}

export interface ChurnHeld {
  /** The plan without the writes of held objects. */
  readonly plan: Plan;
  readonly held: HeldObject[];
  /** Held from this cycle on. */
  readonly newlyHeld: HeldObject[];
  readonly history: ChurnHistory;
}

/** The plan without the writes of held objects; holds any create the last cycles made already. */
export function holdChurn(history: ChurnHistory, plan: Plan): ChurnHeld {
  const wanted = new Map(groupByAction(plan.changes)('create').flatMap((change) => {
    const key = writeKey(change);
    return key === undefined ? [] : [[key, change] as const];
  }));
  // A declaration that changed or no longer needs a create is released.
  const held = new Map([...history.held].filter(([key]) => wanted.has(key)));
  const newlyHeld: HeldObject[] = [];
  for (const [key, change] of wanted) {
    const previous = held.get(key);
    if (previous) {
      held.set(key, { ...previous, object: { ...previous.object, cycles: previous.object.cycles + 1 } });
      continue;
    }
    const created = history.created.get(key);
    if (!created || created.cycles < CREATES_BEFORE_HOLD) continue;
    const object = heldObject(change, created);
    held.set(key, { created, object });
    newlyHeld.push(object);
  }
  // Only an unbroken streak counts: the last cycle's creates are consumed here, continued by recordCreates.
  const next: ChurnHistory = { created: new Map(), continuing: history.created, held };
  const objects = [...held.values()].map((h) => h.object);
  if (held.size === 0) return { plan, held: objects, newlyHeld, history: next };
  return { plan: restrictPlan(plan, withoutHeld(held)), held: objects, newlyHeld, history: next };
}

/** After an apply: what the cycle created, for the next cycle to compare with. */
export function recordCreates(history: ChurnHistory, results: readonly ChangeResult[]): ChurnHistory {
  const created = new Map<string, Created>();
  for (const result of appliedCreates(results)) {
    const { change } = result;
    const objectClass = planClassOf(change);
    if (!hasChurnHold(objectClass)) continue;
    const key = objectClass.writeKey(change);
    created.set(key, {
      cycles: (history.continuing.get(key)?.cycles ?? 0) + 1,
      client: objectClass.client(change),
      ids: new Set(createdIds(result)),
      values: new Set(objectClass.writtenValues(change)),
    });
  }
  return { ...history, created };
}

function heldObject(change: Create, created: Created): HeldObject {
  const objectClass = planClassOf(change);
  const source = objectClass.firstSource(change) ?? { file: '', line: 0, name: '' };
  return { kind: change.kind, client: objectClass.client(change), file: source.file, line: source.line, name: source.name, cycles: created.cycles + 1 };
}

/** Each change without what touches a held object: the create itself, and the deletes of the copies it made. */
function withoutHeld(held: ReadonlyMap<string, Held>): (change: Change) => Change | undefined {
  const heldIds = new Set<number>();
  const heldValues = new Set<string>();
  for (const { created } of held.values()) {
    for (const id of created.ids) heldIds.add(id);
    for (const value of created.values) heldValues.add(`${created.client}|${value}`);
  }
  const without = (change: Change) => planClassOf(change).without(change, heldIds, heldValues);
  const table: ByAction<Change, Change | undefined> = {
    create: (change) => {
      const key = writeKey(change);
      return key !== undefined && held.has(key) ? undefined : change;
    },
    // An adoption writes the mark on an object that exists: nothing to re-create, nothing to hold.
    adopt: (change) => change,
    update: without,
    delete: without,
  };
  return (change) => onAction(change, table);
}
