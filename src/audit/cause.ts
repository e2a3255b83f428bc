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
import { objectsOf, perClass, type ObjectClass } from '../model/object-class.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { onAction, type ByAction } from '../model/by-action.js';
import type { Change } from '../model/change.js';
import type { Plan } from '../plan/model.js';
import { appendTo } from '../plan/append.js';
import { auditClass, auditClassOf } from './classes/index.js';
import { hasFollowUps, hasMemory, hasReplacedFields, type CauseContext } from './classes/class.js';
import type { DeclaredFingerprints } from './declared-fingerprints.js';
import { keySet } from './key-set.js';
import type { WriteCause } from './write-cause.js';

/**
 * Why no cause can be told for a write: a create with no owner mark to read
 * and no memory of an earlier converged run is a new declaration or an object
 * deleted outside Rampart, and the two look the same.
 */
export function unknownCauseReason(remembered: boolean): string {
  return remembered
    ? 'the policies changed since the converged run remembered, and nothing marks these objects'
    : 'no earlier converged run is remembered (a first run, or no --journal): a new declaration and an object deleted outside Rampart look the same';
}

/** Why one change is made, and which fields it changes where the plan does not already say. */
export interface ChangeWhy {
  readonly cause: WriteCause;
  /** Fields a replacement or a forced IP create changes (an update names its own). */
  readonly fields?: readonly string[];
}

/**
 * What `desired` declares. A SHA-256 per declared IP value (180 ms at 50,000),
 * so a daemon computes it only when its policy files changed; the IP
 * fingerprints are not cached on the entries for it (another 4 MB a daemon
 * would hold between cycles).
 */
export function declaredFingerprints(desired: DesiredState, digest: string): DeclaredFingerprints {
  const keys = perClass<DeclaredFingerprints['keys']>((kind) => {
    const objectClass = auditClass(kind);
    // A class the memory does not remember declares no keys: only its owner marks tell its causes.
    if (!hasMemory(objectClass)) return keySet([]);
    return keySet(objectsOf<ObjectClass, 'desired'>(desired, kind).map((object) => objectClass.declaredKey(object)));
  });
  return { digest, keys };
}

/**
 * The cause of each action when the policies are those the account last
 * converged on: only an adoption is asked for; anything else puts back what
 * changed on the service's side.
 */
const CAUSE_OF_UNCHANGED_POLICIES: ByAction<Change, WriteCause> = {
  create: () => 'drift', update: () => 'drift', delete: () => 'drift', adopt: () => 'intent',
};

/** One entry per change of `plan`, in its order. `previous`: the last converged cycle's, when remembered. */
export function explainChanges(
  plan: Plan,
  live: LiveState,
  current: DeclaredFingerprints,
  previous?: DeclaredFingerprints,
): ChangeWhy[] {
  const fieldsOf = (change: Change): Pick<ChangeWhy, 'fields'> => {
    const objectClass = auditClassOf(change);
    const fields = hasReplacedFields(objectClass) ? objectClass.replacedFields(change, live) : [];
    return fields.length > 0 ? { fields } : {};
  };
  if (previous && previous.digest === current.digest) {
    return plan.changes.map((change) => ({ cause: onAction(change, CAUSE_OF_UNCHANGED_POLICIES), ...fieldsOf(change) }));
  }
  const context: CauseContext = { plan, live, liveById: liveById(live), current, previous };
  const first = plan.changes.map((change) => auditClassOf(change).cause(change, context));
  // Second pass: a replaced rule goes for the reason its replacement comes; a forced IP create moving
  // values out of a doomed object, for the reason that object goes.
  return plan.changes.map((change, index) => ({
    cause: first[index] ?? causeAfter(change, first, context),
    ...fieldsOf(change),
  }));
}

/** The cause of a change that follows another of the plan; `unknown` for a class that cannot tell it. */
function causeAfter(change: Change, why: readonly (WriteCause | undefined)[], context: CauseContext): WriteCause {
  const objectClass = auditClassOf(change);
  return hasFollowUps(objectClass) ? objectClass.causeAfter(change, why, context) : 'unknown';
}

/** Each class's live objects by id (an IP object holds several values). */
function liveById(live: LiveState): CauseContext['liveById'] {
  const byId = perClass<{ readonly [K in ObjectClass]: Map<number, { readonly id: number }[]> }>((kind) => {
    const objects = new Map<number, { readonly id: number }[]>();
    for (const object of objectsOf<ObjectClass, 'live'>(live, kind)) appendTo(objects, object.id, object);
    return objects;
  });
  // Sound: each class's map holds that class's live objects.
  return byId as unknown as CauseContext['liveById'];
}
