/**
 * An object `rampart export` wrote into the policies while nobody managed it,
 * as its record keeps it (export/record.ts). The planner reads these to say
 * which ones no declaration matches any more (plan/left-behind.ts).
 */
import type { ObjectClass } from './object-class.js';

export interface ExportedObject {
  readonly kind: ObjectClass;
  readonly client: number;
  /** The live id when exported. */
  readonly id: number;
  /** For IP entries: the value (an object may hold several). */
  readonly value?: string;
  /** The exported file it was written into, relative to the record. */
  readonly file: string;
}
