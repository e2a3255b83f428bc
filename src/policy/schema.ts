/**
 * The JSON Schema of the format (src/policy/schema-document.ts, the rule kinds'
 * fields from the registry), checked by the validator ajv generated from it at
 * build time (schema-validator.generated.ts, scripts/generate-validator.mjs):
 * every error collected, each turned into a message at the offending node.
 */
import { InternalError } from '../errors.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { buildPolicySchema } from './schema-document.js';
import { schemaDiagnostics } from './schema-messages.js';
import { validate as generatedValidator } from './schema-validator.generated.js';
import type { SourceMap } from './source-map.js';
import type { Diagnostic } from '../diagnostic.js';

const validatePolicy = generatedValidator as unknown as ValidateFunction;

/** Finds schemas/policy.schema.json above this module (src/, dist/ and dist-bench/ layouts). */
export function schemaPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'schemas', 'policy.schema.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new InternalError('schemas/policy.schema.json not found next to the rampart package');
    dir = parent;
  }
}

/** The schema itself, built from code (the file under schemas/ is its copy for editors). */
export function policySchema(): Record<string, unknown> {
  return buildPolicySchema();
}

/** Validates one document against the schema; diagnostics carry file positions. */
export function validateSchema(file: string, data: unknown, map: SourceMap): { diagnostics: Diagnostic[]; errorPaths: string[] } {
  if (validatePolicy(data)) return { diagnostics: [], errorPaths: [] };
  const errors: ErrorObject[] = validatePolicy.errors ?? [];
  return { diagnostics: schemaDiagnostics(file, data, map, errors), errorPaths: errors.map((e) => e.instancePath) };
}
