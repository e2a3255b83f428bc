/**
 * The plan as a reviewer reads it, shared by the text, markdown and github
 * renderers: one block per rule change, and IP values grouped per client,
 * application, list, type and attributes so a hundred addresses are one block.
 * A rule create that replaces owned rules shows the old rule's attributes
 * beside the new ones, and the replaced rule's delete is folded into it.
 */
import { InternalError } from '../../errors.js';
import { byClass, OBJECT_CLASSES, type ObjectClassName } from '../classes/index.js';
import type { ObjectAction } from '../counts.js';
import type { Application, ChangeImpact, PlanDocument, PlanChange } from '../types.js';
import { NONE, type Attribute } from './attributes.js';
import { ipBlocks } from './ip-blocks.js';
import { ruleBlocks } from './rule-blocks.js';

/** Terraform's signs, and `@` for an adoption (an unmanaged object made Rampart's in place). */
export type Sign = '+' | '-' | '~' | '-/+' | '@';

export interface SourceLine {
  readonly file: string;
  readonly line: number;
  readonly col?: number;
}

export interface ChangeBlock {
  readonly action: ObjectAction;
  readonly sign: Sign;
  readonly kind: ObjectClassName;
  readonly client: number;
  readonly application: Application;
  /** `rule block-admin #550 (vpatch)`, `deny ip_range`, `allow country`. */
  readonly title: string;
  /** Why a delete happens (`not-declared`, `duplicate`), or how a change runs (`replaces #550`). */
  readonly detail: readonly string[];
  /** Declaring lines (creates, updates, replacements). */
  readonly sources: readonly SourceLine[];
  /** IP values, sorted; `hidden` more the listing did not name. */
  readonly values?: { readonly list: readonly string[]; readonly hidden: number };
  readonly attributes: readonly Attribute[];
  /** Objects it counts (values for IP blocks). */
  readonly count: number;
  /** With `--impact`: what its changes would have done to the traffic the service saw. */
  readonly impact?: ChangeImpact;
}

export const ids = (list: readonly number[]): string => list.map((id) => `#${id}`).join(', ');

/**
 * Every change action must have a block: an action added to PlanChange
 * (issue 13's `adopt`) fails to compile here until it is rendered.
 */
function checkRendered(change: PlanChange): void {
  switch (change.action) {
    case 'create':
    case 'update':
    case 'adopt':
    case 'delete':
      return;
    default: {
      const unrendered: never = change;
      throw new InternalError(`no rendering for the plan action of ${JSON.stringify(unrendered)}`);
    }
  }
}

/** Each class's blocks, from its changes in plan order. */
const CLASS_BLOCKS: { readonly [K in ObjectClassName]: (changes: readonly Extract<PlanChange, { kind: K }>[]) => ChangeBlock[] } = {
  rule: ruleBlocks,
  ip: ipBlocks,
};

/** Blocks in plan order: every class's creates, replacements, updates and adoptions, then every class's deletes. */
export function changeBlocks(plan: PlanDocument): ChangeBlock[] {
  plan.changes.forEach(checkRendered);
  const groups = byClass(plan.changes);
  const blocks = OBJECT_CLASSES.flatMap((kind) => {
    const build = CLASS_BLOCKS[kind] as (changes: readonly PlanChange[]) => ChangeBlock[];
    return build(groups.get(kind) ?? []);
  });
  return [...blocks.filter((b) => b.action !== 'delete'), ...blocks.filter((b) => b.action === 'delete')];
}

/** `file:line`, or the first few and how many more. */
export function sourcesLabel(sources: readonly SourceLine[], max = 3): string {
  const shown = sources.slice(0, max).map((s) => `${s.file}:${s.line}`);
  return sources.length > max ? `${shown.join(', ')} and ${sources.length - max} more` : shown.join(', ');
}

export { NONE };
