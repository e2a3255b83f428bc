/**
 * The model's registry of object classes: the field of the state that holds
 * each class's objects, and the loops over every class. The classes' models
 * (class-models.ts) name them all; the state (state.ts), the change union
 * (change.ts) and every layer's class table (policy, live, plan, render,
 * apply, audit, impact, export) are keyed by them, so a class missing from a
 * table fails to compile there.
 */
import { ClassTable } from './class-table.js';
import type { ObjectClass, ObjectClassModels } from './class-models.js';

// Named here for every layer; they live below the tables (class-table.ts imports them too).
export type { ClassModel, ObjectClass, ObjectClassModels } from './class-models.js';

/** Each class's objects on one side, under the class's field. */
export type ClassObjects<Side extends 'desired' | 'live'> = {
  readonly [K in ObjectClass as ObjectClassModels[K]['field']]: readonly ObjectClassModels[K][Side][];
};

/** The field of the state each class's objects are in. */
const STATE_FIELDS = new ClassTable<string>('state field', { rule: 'rules', ip: 'ipEntries' } satisfies {
  readonly [K in ObjectClass]: ObjectClassModels[K]['field']
});

/**
 * A class beyond the built-in ones, its objects under `field` of the desired
 * and the live state: the model's registration point (class-table.ts). Each
 * layer the class passes through registers its side in its own table.
 */
export function registerObjectClass(kind: string, field: string): () => void {
  return STATE_FIELDS.register(kind, field);
}

/** One class's objects of a state. */
export function objectsOf<K extends ObjectClass, Side extends 'desired' | 'live'>(
  state: ClassObjects<Side>, kind: K,
): readonly ObjectClassModels[K][Side][] {
  // Sound: STATE_FIELDS names the field that ClassObjects types with the class's objects.
  return (state as unknown as Readonly<Record<string, readonly ObjectClassModels[K][Side][]>>)[STATE_FIELDS.get(kind)] as readonly ObjectClassModels[K][Side][];
}

/** Every class, built-in first, then as registered (plan/classes has them in plan order: `classesInPlanOrder`). */
export function registeredClasses(): readonly ObjectClass[] {
  return STATE_FIELDS.kinds();
}

/** The objects of every class, by class. */
export type ObjectsByClass<Side extends 'desired' | 'live'> = { readonly [K in ObjectClass]: readonly ObjectClassModels[K][Side][] };

/** A state's class fields, from each class's objects. */
export function classObjects<Side extends 'desired' | 'live'>(objects: ObjectsByClass<Side>): ClassObjects<Side> {
  // Sound: each class's objects go under the field STATE_FIELDS names for it.
  return Object.fromEntries(registeredClasses().map((kind) => [STATE_FIELDS.get(kind), objects[kind]])) as unknown as ClassObjects<Side>;
}

/** A value for every class of the registry, each what `make` makes for its class: the one place a record keyed by class is built. */
export function perClass<R extends { readonly [K in ObjectClass]: unknown }>(make: <K extends ObjectClass>(kind: K) => R[K]): R {
  // Sound: each class's entry is what `make` made for that class.
  return Object.fromEntries(registeredClasses().map((kind) => [kind, make(kind)])) as unknown as R;
}

/** Each class's objects on one side, as `make` gives them for the class. */
export function objectsByClass<Side extends 'desired' | 'live'>(
  make: <K extends ObjectClass>(kind: K) => readonly ObjectClassModels[K][Side][],
): ObjectsByClass<Side> {
  // Sound: ObjectsByClass<Side>[K] is the list `make` returns for K.
  return perClass<ObjectsByClass<Side>>(make as <K extends ObjectClass>(kind: K) => ObjectsByClass<Side>[K]);
}
