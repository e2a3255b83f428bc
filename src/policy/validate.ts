/**
 * Parsed documents → diagnostics and, when nothing is an error, the desired
 * state. Pure: no file system, so tests feed in-memory text.
 */
import { compareStrings } from '../model/compare.js';
import { classObjects, objectsByClass, type ObjectClass } from '../model/object-class.js';
import type { ClientSource, DesiredState } from '../model/state.js';
import { compileDocument, type CompiledDocument } from './compile-document.js';
import { compilePolicyText } from './compile-text.js';
import { policyClass } from './classes/index.js';
import { crossChecks } from './conflicts.js';
import { hasErrors, type Diagnostic } from '../diagnostic.js';
import { sortDiagnostics, type PolicyOptions, type PolicyText } from './types.js';
import type { ParsedPolicy } from './yaml.js';

export interface ValidationResult {
  readonly diagnostics: Diagnostic[];
  /** Only when no diagnostic is an error. */
  readonly desired?: DesiredState;
}

export function validateDocuments(parsed: readonly ParsedPolicy[], options: PolicyOptions = {}): ValidationResult {
  const now = nowSeconds(options);
  return combineDocuments(parsed.map((doc) => compileDocument(doc, now)));
}

/** Unix seconds expiries are compared with. */
export function nowSeconds(options: PolicyOptions): number {
  return Math.floor((options.now ?? new Date()).getTime() / 1000);
}

/** Compiled documents → the checks across files, all diagnostics and the desired state. */
export function combineDocuments(documents: readonly CompiledDocument[]): ValidationResult {
  const compiled = [...documents].sort((a, b) => compareStrings(a.file, b.file));
  const objects = objectsByClass<'desired'>(<K extends ObjectClass>(kind: K) => compiled.flatMap((c) => c.objects[kind]));
  const naming = compiled.filter((c) => c.ipApi !== undefined && c.ipApiAt !== undefined);
  const diagnostics = sortDiagnostics([...compiled.flatMap((c) => c.diagnostics), ...crossChecks(objects), ...ipApiConflicts(naming)]);
  if (hasErrors(diagnostics)) return { diagnostics };
  const clients = [...new Set(compiled.flatMap((c) => (c.client === undefined ? [] : [c.client])))].sort((a, b) => a - b);
  const clientSources = compiled.flatMap((c) => (c.client === undefined || !c.clientAt ? [] : [clientSource(c.client, c.file, c.clientAt)]));
  const applicationSources = compiled.flatMap((c) => (c.client === undefined || !c.applicationAt
    ? []
    : (c.applications ?? []).map((application) => clientSource(c.client as number, c.file, c.applicationAt as { line: number; col: number }, { application }))));
  // Each class in a deterministic order, whatever the order of the files.
  const sorted = objectsByClass<'desired'>((kind) => policyClass(kind).sort(objects[kind]));
  const [first] = naming;
  const ipApi = first?.ipApi ? clientSource(first.client as number, first.file, first.ipApiAt as { line: number; col: number }, { ipApi: first.ipApi }) : undefined;
  return {
    diagnostics,
    desired: {
      clients, ...classObjects(sorted), ...(clientSources.length ? { clientSources } : {}), ...(applicationSources.length ? { applicationSources } : {}),
      ...(ipApi ? { ipApi } : {}),
    },
  };
}

/**
 * A run reads and writes every account's IP lists through one API: files
 * that name different ones (`ip_api:`) are an error at each that differs
 * from the first.
 */
function ipApiConflicts(naming: readonly CompiledDocument[]): Diagnostic[] {
  const [first, ...rest] = naming;
  if (!first?.ipApiAt) return [];
  const at = first.ipApiAt;
  return rest.filter((c) => c.ipApi !== first.ipApi).map((c) => ({
    file: c.file, line: c.ipApiAt?.line ?? 1, col: c.ipApiAt?.col ?? 1, severity: 'error', code: 'ip-api-conflict',
    message: `ip_api: ${c.ipApi ?? ''} here, but ${first.file}:${at.line} says ${first.ipApi ?? ''}: a run reads and writes the IP lists through one API; name the same one in every file`,
  }));
}

/** Where a document names its account (and, for `application:`, which application). */
function clientSource<E extends object>(client: number, file: string, at: { readonly line: number; readonly col: number }, extra?: E): ClientSource & E {
  return { client, ...(extra ?? ({} as E)), file, line: at.line, col: at.col };
}

/** Parse + validate in-memory texts (the pure entry point for tests and tools). */
export function loadPolicyTexts(texts: readonly PolicyText[], options: PolicyOptions = {}): ValidationResult {
  const now = nowSeconds(options);
  return combineDocuments(texts.map((text) => compilePolicyText(text, options, now)));
}
