/**
 * What adoption (adopt.ts, adopt-ip.ts) takes and gives: the declarations an
 * unmanaged object satisfies, the conflicts, and what the diff still decides.
 */
import type { ObjectClass } from '../model/object-class.js';
import type { Change } from '../model/change.js';
import type { DesiredIpEntry, LiveIpEntry } from '../model/ip.js';
import type { DesiredRule, LiveRule } from '../model/rule.js';
import type { Source } from '../model/source.js';

/** A declaration an unmanaged object satisfies, left unmanaged. */
export interface UnmanagedMatch {
  readonly kind: ObjectClass;
  readonly client: number;
  readonly source: Source;
  readonly id: number;
  readonly value?: string;
}

/** An unmanaged object blocking a declaration (see the module comment). */
export interface Conflict {
  readonly kind: ObjectClass;
  readonly client: number;
  readonly source: Source;
  readonly id: number;
  readonly message: string;
  /** False where `--adopt` cannot resolve it (the object is ours already); the message says what can. */
  readonly adoptable?: false;
}

export interface AdoptionInput {
  readonly desiredRules: readonly DesiredRule[];
  readonly liveRules: readonly LiveRule[];
  readonly desiredIp: readonly DesiredIpEntry[];
  readonly liveIp: readonly LiveIpEntry[];
  readonly owner: string;
  /** `--adopt`: turn pairs and conflicts into `adopt` changes. */
  readonly adopt: boolean;
}

export interface Adoption {
  /** What the diff still has to decide. */
  readonly desiredRules: readonly DesiredRule[];
  readonly liveRules: readonly LiveRule[];
  readonly desiredIp: readonly DesiredIpEntry[];
  readonly liveIp: readonly LiveIpEntry[];
  /** `adopt` changes, and the deletes of adopted objects whose values move lists. */
  readonly changes: readonly Change[];
  /** Without `--adopt`. */
  readonly unmanaged: readonly UnmanagedMatch[];
  /** Without `--adopt` (and, for IP objects holding undeclared values, with it too). */
  readonly conflicts: readonly Conflict[];
  /** Values a create of the diff moves out of adopted objects: `linkMoves` ties them to the delete. */
  readonly moves: ReadonlyMap<string, readonly number[]>;
  /** Unmanaged live objects a declaration claimed (satisfied by, adopted, blocking, moved, or copies of what an owned object serves). */
  readonly claimed: ReadonlySet<LiveRule | LiveIpEntry>;
}
