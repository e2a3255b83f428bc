/**
 * Parsed documents → diagnostics and, when nothing is an error, the desired
 * state. Pure: no file system, so tests feed in-memory text.
 */
import { compareIpIdentity } from '../model/ip.js';
import { ruleKey } from '../model/rule.js';
import { compareStrings } from '../model/compare.js';
import type { ClientSource, DesiredState } from '../model/state.js';
import { compileDocument, type CompiledDocument } from './compile-document.js';
import { compilePolicyText } from './compile-text.js';
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
  const rules = compiled.flatMap((c) => c.rules);
  const ipEntries = compiled.flatMap((c) => c.ipEntries);
  const diagnostics = sortDiagnostics([...compiled.flatMap((c) => c.diagnostics), ...crossChecks(rules, ipEntries)]);
  if (hasErrors(diagnostics)) return { diagnostics };
  const clients = [...new Set(compiled.flatMap((c) => (c.client === undefined ? [] : [c.client])))].sort((a, b) => a - b);
  const clientSources = compiled.flatMap((c) => (c.client === undefined || !c.clientAt ? [] : [clientSource(c.client, c.file, c.clientAt)]));
  return { diagnostics, desired: normalizeOrder({ clients, rules, ipEntries, ...(clientSources.length ? { clientSources } : {}) }) };
}

/**
 * Reads the position when asked for, not here: a file read on the clean path
 * builds its positions only then (spots-tape.ts), and only an error about
 * the account needs this one.
 */
function clientSource(client: number, file: string, at: { readonly line: number; readonly col: number }): ClientSource {
  return {
    client,
    file,
    get line() {
      return at.line;
    },
    get col() {
      return at.col;
    },
  };
}

/** Parse + validate in-memory texts (the pure entry point for tests and tools). */
export function loadPolicyTexts(texts: readonly PolicyText[], options: PolicyOptions = {}): ValidationResult {
  const now = nowSeconds(options);
  return combineDocuments(texts.map((text) => compilePolicyText(text, options, now)));
}

/** Deterministic order: rules by client then identity; entries by identity then expiry. */
function normalizeOrder(state: DesiredState): DesiredState {
  const rules = state.rules
    .map((rule) => ({ rule, key: ruleKey(rule) }))
    .sort((a, b) => a.rule.client - b.rule.client || compareStrings(a.key, b.key) || compareStrings(a.rule.source.file, b.rule.source.file))
    .map((x) => x.rule);
  const ipEntries = [...state.ipEntries].sort((a, b) => compareIpIdentity(a, b) || a.expiresAt - b.expiresAt);
  return { ...state, rules, ipEntries };
}
