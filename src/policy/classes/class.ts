/**
 * One object class as the policy language declares it: how a document's part
 * becomes desired objects, their order in the desired state, and the checks
 * among all files' objects of the class. compile-document.ts, validate.ts
 * and conflicts.ts do the rest for every class alike, by the class's name.
 */
import type { Diagnostic } from '../../diagnostic.js';
import type { DocumentContext } from '../context.js';
import type { PolicyDocument } from '../document.js';

export interface PolicyClass<Desired> {
  /** The class's objects one schema-checked document declares; its problems go to `ctx.report`. */
  compile(doc: PolicyDocument, ctx: DocumentContext): Desired[];
  /** The class's objects in the desired state's order, whatever the order of the files. */
  sort(objects: readonly Desired[]): Desired[];
  /** Problems among the class's objects of all files (the same object twice, conflicts), each said once. */
  conflicts(objects: readonly Desired[]): Diagnostic[];
}
