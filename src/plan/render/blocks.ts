/**
 * The plan as a reviewer reads it, shared by the text, markdown and github
 * renderers: one block per rule change, and IP values grouped per client,
 * application, list, type and attributes so a hundred addresses are one block.
 * A rule create that replaces owned rules shows the old rule's attributes
 * beside the new ones, and the replaced rule's delete is folded into it.
 */
import { groupByClass, classesInPlanOrder } from '../classes/index.js';
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass } from '../../model/object-class.js';
import type { ObjectAction } from '../counts.js';
import type { PlanBody, PlanChange } from '../types.js';
import { NONE } from './attributes.js';
import type { ChangeBlock, SourceLine } from './change-block.js';
import { ipBlocks } from './classes/ip-blocks.js';
import { ruleBlocks } from './classes/rule-blocks.js';

/** Each class's blocks, from its changes in plan order. */
type ClassBlocks = (changes: readonly PlanChange[]) => ChangeBlock[];

const BUILT_IN: { readonly [K in ObjectClass]: (changes: readonly Extract<PlanChange, { kind: K }>[]) => ChangeBlock[] } = {
  rule: ruleBlocks,
  ip: ipBlocks,
};

const CLASS_BLOCKS = new ClassTable<ClassBlocks>('render side', BUILT_IN);

/** How a class's changes read in a plan: its blocks, from its document changes in plan order. */
export function registerClassBlocks<C>(kind: string, blocks: (changes: readonly C[]) => ChangeBlock[]): () => void {
  // Sound: the table hands the class only changes of its own `kind`.
  return CLASS_BLOCKS.register(kind, blocks as unknown as ClassBlocks);
}

/** Where a block's action comes as a reviewer reads: what the plan builds, then what it takes away. */
const READING_ORDER: Readonly<Record<ObjectAction, number>> = { create: 0, replace: 0, update: 0, adopt: 0, delete: 1 };

/** Blocks in plan order: every class's creates, replacements, updates and adoptions, then every class's deletes. */
export function changeBlocks(plan: PlanBody): ChangeBlock[] {
  const groups = groupByClass(plan.changes);
  const blocks = classesInPlanOrder().flatMap((kind) => CLASS_BLOCKS.get(kind)(groups.get(kind) ?? []));
  return blocks.map((block, index) => ({ block, index }))
    .sort((a, b) => READING_ORDER[a.block.action] - READING_ORDER[b.block.action] || a.index - b.index)
    .map(({ block }) => block);
}

/** `file:line`, or the first few and how many more. */
export function sourcesLabel(sources: readonly SourceLine[], max = 3): string {
  const shown = sources.slice(0, max).map((s) => `${s.file}:${s.line}`);
  return sources.length > max ? `${shown.join(', ')} and ${sources.length - max} more` : shown.join(', ');
}

export { NONE };
