/** What the converged memory keeps of a cycle's policies, to tell drift from intent later (cause.ts). */
import type { ObjectClass } from '../model/object-class.js';
import type { KeySet } from './key-set.js';

/** What a cycle declared: its policies' digest and, by class, the key of every declared object (its class's `declaredKey`). */
export interface DeclaredFingerprints {
  readonly digest: string;
  readonly keys: { readonly [K in ObjectClass]: KeySet };
}
