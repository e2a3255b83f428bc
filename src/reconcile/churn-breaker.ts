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
 */
import { createdIds, type ChangeResult } from '../audit/change-result.js';
import { planClassOf, type ObjectClassName } from '../plan/classes/index.js';
import { restrictPlan } from '../plan/plan.js';
import type { Change } from '../model/change.js';
import type { Plan } from '../plan/types.js';

/** An object the breaker keeps from being written, as reported. */
export interface HeldObject {
  readonly kind: ObjectClassName;
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

type Create = Extract<Change, { action: 'create' }>;

export function createWriteKey(change: Create): string {
  return planClassOf(change).writeKey(change);
}

export class ChurnBreaker {
  /** Creates the last cycle made, by write key, with their streaks. */
  private lastCreated = new Map<string, Created>();
  /** The streaks the current cycle continues (set by `restrict`, read by `recordApplied`). */
  private previous = new Map<string, Created>();
  private readonly held = new Map<string, { created: Created; object: HeldObject }>();

  get heldObjects(): HeldObject[] {
    return [...this.held.values()].map((h) => h.object);
  }

  /** The plan without the writes of held objects; holds any create the last cycle made already. */
  restrict(plan: Plan): { plan: Plan; held: HeldObject[]; newlyHeld: HeldObject[] } {
    const wanted = new Map<string, Create>();
    for (const change of plan.changes) if (change.action === 'create') wanted.set(createWriteKey(change), change);
    // Only an unbroken streak counts: consumed here, continued by recordApplied.
    const lastCreated = this.lastCreated;
    this.previous = lastCreated;
    this.lastCreated = new Map();
    // A declaration that changed or no longer needs a create is released.
    for (const key of this.held.keys()) if (!wanted.has(key)) this.held.delete(key);
    const newlyHeld: HeldObject[] = [];
    for (const [key, change] of wanted) {
      const previous = this.held.get(key);
      if (previous) {
        this.held.set(key, { ...previous, object: { ...previous.object, cycles: previous.object.cycles + 1 } });
        continue;
      }
      const created = lastCreated.get(key);
      if (!created || created.cycles < CREATES_BEFORE_HOLD) continue;
      const objectClass = planClassOf(change);
      const source = objectClass.firstSource(change) ?? { file: '', line: 0, name: '' };
      const object: HeldObject = {
        kind: change.kind, client: objectClass.client(change), file: source.file, line: source.line, name: source.name, cycles: created.cycles + 1,
      };
      this.held.set(key, { created, object });
      newlyHeld.push(object);
    }
    if (this.held.size === 0) return { plan, held: [], newlyHeld };
    const heldIds = new Set<number>();
    const heldValues = new Set<string>();
    for (const { created } of this.held.values()) {
      for (const id of created.ids) heldIds.add(id);
      for (const value of created.values) heldValues.add(`${created.client}|${value}`);
    }
    const restricted = restrictPlan(plan, (change) => this.keep(change, heldIds, heldValues));
    return { plan: restricted, held: this.heldObjects, newlyHeld };
  }

  /** After an apply: what the cycle created, for the next cycle to compare with. */
  recordApplied(results: readonly ChangeResult[]): void {
    this.lastCreated = new Map();
    for (const result of results) {
      const { change } = result;
      if (change.action !== 'create' || result.status !== 'applied') continue;
      const ids = new Set(createdIds(result));
      const values = new Set(planClassOf(change).writtenValues(change));
      const key = createWriteKey(change);
      const cycles = (this.previous.get(key)?.cycles ?? 0) + 1;
      this.lastCreated.set(key, { cycles, client: planClassOf(change).client(change), ids, values });
    }
  }

  private keep(change: Change, heldIds: ReadonlySet<number>, heldValues: ReadonlySet<string>): Change | undefined {
    if (change.action === 'create') return this.held.has(createWriteKey(change)) ? undefined : change;
    // An adoption writes the mark on an object that exists: nothing to re-create, nothing to hold.
    if (change.action === 'adopt') return change;
    return planClassOf(change).without(change, heldIds, heldValues);
  }
}
