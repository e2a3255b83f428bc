/**
 * The one counting vocabulary of plans, apply reports, daemon outcomes, logs
 * and metrics: objects as a reviewer counts them (an IP entry with three
 * countries is three), by what happens to them. API calls are counted apart
 * and always named as calls.
 */

/** What happens to an object, in the order summaries list them. */
export const OBJECT_ACTIONS = ['create', 'update', 'replace', 'delete', 'adopt'] as const;
export type ObjectAction = (typeof OBJECT_ACTIONS)[number];

/** Objects per action; an action left out is 0. */
export type ObjectCounts = Partial<Record<ObjectAction, number>>;

const PAST_TENSE: Readonly<Record<ObjectAction, string>> = {
  create: 'created', update: 'updated', replace: 'replaced', delete: 'deleted', adopt: 'adopted',
};

/** Always shown, even at 0 (Terraform's shape); the others only when not 0. */
const ALWAYS: ReadonlySet<ObjectAction> = new Set(['create', 'update', 'delete']);

function shown(counts: ObjectCounts): ObjectAction[] {
  return OBJECT_ACTIONS.filter((action) => ALWAYS.has(action) || (counts[action] ?? 0) > 0);
}

/** `2 to create, 1 to update, 1 to delete, 4 unchanged` (`N to replace`, `N to adopt` when not 0). */
export function planPhrase(counts: ObjectCounts & { readonly unchanged?: number }): string {
  const parts = shown(counts).map((action) => `${counts[action] ?? 0} to ${action}`);
  if (counts.unchanged !== undefined) parts.push(`${counts.unchanged} unchanged`);
  return parts.join(', ');
}

/** The object counts of a plan's summary (`unchanged` left out): what a cycle or a gauge reports. */
export function summaryCounts(summary: ObjectCounts): Record<ObjectAction, number> {
  const out = {} as Record<ObjectAction, number>;
  for (const action of OBJECT_ACTIONS) out[action] = summary[action] ?? 0;
  return out;
}

/** `2 created, 1 updated, 0 deleted`. */
export function donePhrase(counts: ObjectCounts): string {
  return shown(counts).map((action) => `${counts[action] ?? 0} ${PAST_TENSE[action]}`).join(', ');
}

/** `5 API calls` / `1 API call`. */
export function callsPhrase(calls: number): string {
  return `${calls} API call${calls === 1 ? '' : 's'}`;
}
