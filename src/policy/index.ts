/**
 * The policy language: YAML files → diagnostics and a validated, normalized
 * DesiredState. `loadPolicies` reads a directory; `loadPolicyTexts` and
 * `validateDocuments` are the pure core for in-memory text.
 */
export { loadPolicies } from './load.js';
export { loadPolicyTexts, validateDocuments, type ValidationResult } from './validate.js';
export { parsePolicyText, type ParsedPolicy } from './yaml.js';
export { findPolicyFiles, type FoundFiles, type PolicyFile } from './files.js';
export { policySchema, schemaPath } from './schema.js';
export { hasErrors, type Diagnostic, type Severity } from '../diagnostic.js';
export {
  sortDiagnostics,
  DEFAULT_MAX_ALIAS_COUNT,
  DEFAULT_MAX_FILE_BYTES,
  type PolicyLoadResult,
  type PolicyOptions,
  type PolicyText,
} from './types.js';
export { formatDiagnostics, type DiagnosticFormat } from './format.js';
