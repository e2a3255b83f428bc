/**
 * One block of the plan as a reviewer reads it, the shape every class's
 * blocks take (blocks.ts gathers them by class, the renderers print them).
 */
import type { ObjectClass } from '../../model/object-class.js';
import type { ObjectAction } from '../counts.js';
import type { ChangeImpact, Application } from '../change-document.js';
import type { Attribute } from './attributes.js';

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
  readonly kind: ObjectClass;
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
