import type { ObjectClass, ObjectClassModels } from './class-models.js';

/**
 * One API call's worth of change, as the diff produces it (model objects in,
 * model objects out). `src/plan/plan.ts` sorts these once and turns them into
 * the plan's JSON changes. `summary` counts objects (values), not calls.
 */
export type Change = ChangeOf<ObjectClass>;

/** The changes of one class. */
export type ChangeOf<K extends ObjectClass> = ObjectClassModels[K]['change'];
