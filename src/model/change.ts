import type { ObjectClass, ObjectClassModels } from './object-class.js';

/**
 * One API call's worth of change, as the diff produces it (model objects in,
 * model objects out). `src/plan/plan.ts` sorts these once and turns them into
 * the plan's JSON changes. `summary` counts objects (values), not calls.
 */
export type Change = ChangeOf<ObjectClass>;

/** The changes of one class. */
export type ChangeOf<K extends ObjectClass> = ObjectClassModels[K]['change'];

/**
 * Why an owned live object goes:
 * - `not-declared`: no policy declares it any more (the safety guard counts these);
 * - `duplicate`: another live object already provides it;
 * - `replaced`: a create earlier in the plan replaces it (a rule's comment changed);
 * - `moved`: an unmanaged IP object adopted with `--adopt` whose value the
 *   policies declare in another list: it goes once the value is in that list.
 */
export type DeleteReason = 'not-declared' | 'duplicate' | 'replaced' | 'moved';

