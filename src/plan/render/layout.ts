/**
 * The attribute lines of one change block, shared by the text renderer and
 * the markdown comment's diff blocks: names aligned, a changed value as
 * `~ name: old → new` (Terraform's shape), IP values wrapped into lines.
 */
import { planClass } from '../classes/index.js';
import { callsPhrase, planPhrase } from '../counts.js';
import type { PlanBody } from '../types.js';
import type { ChangeBlock } from './change-block.js';

export const NO_CHANGES = 'No changes. The account matches the policies.';
/** The closing line when nothing is to be done yet the account holds what the policies no longer declare. */
export const NO_CHANGES_LEFT_BEHIND = 'No changes Rampart can make; the account still holds objects the policies no longer declare (above).';

/** `Plan: 2 to create, 1 to update, 1 to delete, 4 unchanged (4 API calls).` or the no-changes line. */
export function planSummaryLine(plan: PlanBody): string {
  if (plan.changes.length > 0) return `Plan: ${planPhrase(plan.summary)} (${callsPhrase(plan.api_calls)}).`;
  return plan.left_unmanaged.length > 0 || (plan.kept?.length ?? 0) > 0 ? NO_CHANGES_LEFT_BEHIND : NO_CHANGES;
}

/**
 * One line for the owned rules no longer declared that a client cannot
 * delete (the plan's `kept` names each), or undefined when there is none.
 */
export function keptPhrase(plan: PlanBody): string | undefined {
  const kept = plan.kept ?? [];
  if (kept.length === 0) return undefined;
  const named = (o: (typeof kept)[number]) => (o.name !== undefined ? `${o.type} ${o.name} #${o.id}` : `${o.type} #${o.id}`);
  const counters = kept.filter((o) => o.undeletable === 'always');
  const made = kept.filter((o) => o.undeletable === 'adopted');
  const parts = [
    counters.length > 0 ? `${counters.map(named).join(', ')} stay${counters.length === 1 ? 's' : ''} until the triggers using ${counters.length === 1 ? 'it' : 'them'} are gone (a client cannot delete a counter)` : '',
    made.length > 0 ? `${made.map(named).join(', ')} stay${made.length === 1 ? 's' : ''}: the service made ${made.length === 1 ? 'it' : 'them'} and keeps ${made.length === 1 ? 'it' : 'them'} (edit or disable ${made.length === 1 ? 'it' : 'them'} in a policy instead)` : '',
  ].filter((part) => part !== '');
  return `No longer declared, and no call is made: ${parts.join('; ')}.`;
}

/** Rule names said in the undeclared line before `and N more`. */
const UNDECLARED_NAMES = 5;

/**
 * Before the changes: the owned objects deleted only because these policies
 * do not declare them, the files that last declared them where known, and
 * the ways out; undefined when the plan deletes none (undeclared.ts).
 */
export function undeclaredPhrase(plan: PlanBody): string | undefined {
  const u = plan.undeclared;
  if (!u) return undefined;
  const one = u.count === 1;
  const unknown = u.files_unknown === 0 ? ''
    : u.files.length === 0 ? "not recorded, since an owner mark keeps a rule's name and not its file"
      : `not recorded for ${u.files_unknown} of them`;
  const names = u.names.slice(0, UNDECLARED_NAMES);
  const more = u.names.length - names.length;
  const named = names.length === 0 ? '' : `; rule name${u.names.length === 1 ? '' : 's'}: ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  const where = [u.files.join(', '), unknown].filter((part) => part !== '').join('; ');
  return `${u.count} object${one ? '' : 's'} owned by ${plan.owner} ${one ? 'is' : 'are'} not declared in these policies and would be deleted ` +
    `(last declared in: ${where}${named}). If another directory declares ${one ? 'it' : 'them'}, plan only these files with ` +
    '--target FILE, or give these policies an owner of their own with --owner NAME.';
}

/**
 * One line for every declaration an unmanaged object satisfies (the plan's
 * `unmanaged` list names each), or undefined when there is none.
 */
export function unmanagedPhrase(plan: PlanBody): string | undefined {
  const n = plan.unmanaged.length;
  if (n === 0) return undefined;
  const are = n === 1 ? 'object is' : 'objects are';
  return `${n} declared ${are} held by unmanaged objects (no owner mark): not created again, and not deleted if removed from the policies. ` +
    '`rampart adopt` makes them Rampart\'s.';
}

/**
 * One line for the exported objects no declaration matches any more (the
 * plan's `left_unmanaged` names each), or undefined when there is none.
 */
export function leftUnmanagedPhrase(plan: PlanBody): string | undefined {
  const n = plan.left_unmanaged.length;
  if (n === 0) return undefined;
  const shown = plan.left_unmanaged.slice(0, 10).map((o) => planClass(o.kind).objectLabel(o));
  const more = n > shown.length ? `, and ${n - shown.length} more` : '';
  return `${n} exported object${n === 1 ? ' is' : 's are'} no longer declared but stay${n === 1 ? 's' : ''} in the account: ` +
    `Rampart does not manage ${n === 1 ? 'it' : 'them'}, so nothing deletes ${n === 1 ? 'it' : 'them'} (${shown.join(', ')}${more}). ` +
    'To have Rampart delete an object, declare it again, run `rampart adopt`, then remove it; or delete it in the console.';
}

/**
 * With `--target`: what the plan is narrowed to, and that the rest waits (as
 * Terraform warns of `-target`); undefined for a full plan.
 */
export function targetPhrase(plan: PlanBody): string | undefined {
  const target = plan.target;
  if (!target) return undefined;
  const what = [...target.files.map((f) => `file ${f}`), ...target.names.map((n) => `rule ${n}`)].join(', ');
  const left = target.left_out === 0 ? 'nothing of the full plan is left out' : `${target.left_out} change${target.left_out === 1 ? '' : 's'} of the full plan ${target.left_out === 1 ? 'is' : 'are'} left out`;
  return `Targeted: only ${what} ${target.files.length + target.names.length === 1 ? 'is' : 'are'} planned, and nothing outside ${target.files.length + target.names.length === 1 ? 'it' : 'them'} is deleted; ${left}. Plan without --target before relying on the account matching the policies.`;
}

const WIDTH = 100;

export interface AttributeLine {
  /** The attribute changes (old → new). */
  readonly changed: boolean;
  readonly text: string;
}

/** Values joined with `, ` and wrapped at about WIDTH characters; continuation lines start with `indent`. */
function wrap(values: readonly string[], indent: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const value of values) {
    const next = current === '' ? value : `${current}, ${value}`;
    if (current !== '' && next.length + indent > WIDTH) {
      lines.push(`${current},`);
      current = value;
    } else current = next;
  }
  if (current !== '') lines.push(current);
  return lines;
}

export function attributeLines(block: ChangeBlock): AttributeLine[] {
  const names = [...block.attributes.map((a) => a.name), ...(block.values ? ['values'] : [])];
  const width = Math.max(...names.map((n) => n.length)) + 1;
  const label = (name: string) => `${name}:`.padEnd(width);
  const out: AttributeLine[] = [];
  if (block.values) {
    const hidden = block.values.hidden > 0 ? [`and ${block.values.hidden} more the listing did not name`] : [];
    const [first = '', ...rest] = wrap([...block.values.list, ...hidden], width + 1);
    out.push({ changed: false, text: `${label('values')} ${first}` });
    for (const line of rest) out.push({ changed: false, text: `${' '.repeat(width)} ${line}` });
  }
  for (const a of block.attributes) {
    out.push(a.old !== undefined
      ? { changed: true, text: `${label(a.name)} ${a.old} → ${a.value}` }
      : { changed: false, text: `${label(a.name)} ${a.value}` });
  }
  return out;
}
