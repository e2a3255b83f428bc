/**
 * One object class as `rampart export` sees it: which of its live objects a
 * policy file can hold and where, how they are written there, and whether
 * they read back as themselves. select.ts, render.ts and build.ts do the
 * rest for every class alike, looking each class up by its name.
 */
import type { Node } from 'yaml';
import type { ExportOptions, ObjectHandle, Placed, Skipped } from '../types.js';

/** What one class's selection leaves out, before the class's name is added. */
export type ClassSkip = Omit<Skipped, 'kind'>;

/** Makes the YAML nodes of one file's document. */
export interface YamlNodes {
  /** In flow style: `[a, b]`, `{ k: v }`. */
  flow(value: unknown): Node;
  /** In the document's block style. */
  block(value: unknown): Node;
}

export interface ExportClass<Live, Desired, Counted extends string = string> {
  /** The field of an export file that counts the class's objects (`rules`, `ipValues`). */
  readonly counted: Counted;
  /** How the report and the export record name an object. */
  handle(object: Live): ObjectHandle;
  /**
   * The client's objects a policy can hold, each placed in the scope of its
   * file and sorted, and the others with why they are left out (owned by
   * someone, inexpressible, a duplicate or conflict a policy rejects).
   */
  select(objects: readonly Live[], options: Pick<ExportOptions, 'owner' | 'excludeOwned' | 'now'>): { placed: Placed<Live>[]; skipped: ClassSkip[] };
  /** The top-level sections of one file that hold its objects, in the order written; none when it holds none. */
  render(objects: readonly Live[], nodes: YamlNodes): Record<string, unknown>;
  /** Whether a live object reads back from the policies exactly (the desired objects they declare of the class). */
  readsBack(desired: readonly Desired[]): (object: Live) => boolean;
  /** Why an object that does not read back is left out. */
  readonly lostDetail: string;
}
