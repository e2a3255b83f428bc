/**
 * The attribute lines of one change block, shared by the text renderer and
 * the markdown comment's diff blocks: names aligned, a changed value as
 * `~ name: old → new` (Terraform's shape), IP values wrapped into lines.
 */
import { callsPhrase, planPhrase } from '../counts.js';
import type { Plan } from '../types.js';
import type { ChangeBlock } from './blocks.js';

export const NO_CHANGES = 'No changes. The account matches the policies.';

/** `Plan: 2 to create, 1 to update, 1 to delete, 4 unchanged (4 API calls).` or the no-changes line. */
export function planSummaryLine(plan: Plan): string {
  return plan.changes.length === 0 ? NO_CHANGES : `Plan: ${planPhrase(plan.summary)} (${callsPhrase(plan.api_calls)}).`;
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
