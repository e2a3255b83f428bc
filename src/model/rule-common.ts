/**
 * The fields every rule has on the service beside its kind's own and its
 * comment: `title`, `set` (a named rule set), `active` and
 * `variativity_disabled`. No policy names them. Rampart writes them one way
 * (below); a rule made in the console may hold others, which Rampart keeps:
 * the service's update resets whatever its body leaves out, so an update in
 * place sends them as stored (src/apply/classes/rule-requests.ts).
 */

/** What a listing shows of them, as Rampart keeps it. */
export interface RuleCommonFields {
  readonly title: string;
  readonly set: string;
  readonly active: boolean;
}

/**
 * What Rampart writes: no title or set, active, and the service's own
 * variations of its signatures disabled, so what Rampart manages does not
 * change under it (`variativity_disabled` is Rampart's on every write,
 * adopted rules included: it is not kept).
 */
export const WRITTEN_COMMON_FIELDS: RuleCommonFields = { title: '', set: '', active: true };
export const VARIATIVITY_DISABLED = true;

/**
 * The stored common fields of a listed rule, or undefined when they are
 * what Rampart writes (nearly every rule: nothing is held for them).
 */
export function storedCommonFields(record: { readonly title?: unknown; readonly set?: unknown; readonly active?: unknown }): RuleCommonFields | undefined {
  const title = typeof record.title === 'string' ? record.title : '';
  const set = typeof record.set === 'string' ? record.set : '';
  const active = record.active !== false;
  if (title === '' && set === '' && active) return undefined;
  return { title, set, active };
}
