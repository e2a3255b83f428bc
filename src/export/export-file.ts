/** One policy file an export writes, with how many objects of each class it holds. */
import type { ExportCounts } from './classes/index.js';

export type ExportFile = ExportCounts & {
  /** File name inside the output directory, e.g. `app-7.yaml`. */
  readonly name: string;
  readonly text: string;
};
