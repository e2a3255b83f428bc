/** What checking one document needs to know besides the part being checked. */
import type { Interner } from '../model/interner.js';
import type { Reporter } from './reporter.js';
import type { Path } from './source-map.js';

export interface DocumentContext {
  readonly file: string;
  readonly report: Reporter;
  /** Undefined when the document's client is invalid: checks run, nothing is produced. */
  readonly client: number | undefined;
  /** Application ids, or 'all'. Undefined when invalid. */
  readonly applications: readonly number[] | 'all' | undefined;
  /** True when the schema reported nothing at or below `path`. */
  readonly clean: (path: Path) => boolean;
  /** Unix seconds expiries are compared with. */
  readonly now: number;
  /** Every expiry compared with `now`: the result holds for another `now` on the same side of each. */
  readonly expiries: number[];
  /** One copy of the points, conditions, pools and comments the document repeats. */
  readonly intern: Interner;
}
