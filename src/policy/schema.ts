/**
 * The JSON Schema of the format (src/policy/schema-document.ts, the rule kinds'
 * fields from the registry) is compiled once, with every error collected, and
 * each ajv error is turned into a message at the offending node.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildPolicySchema } from './schema-document.js';
import { schemaDiagnostics } from './schema-messages.js';
import type { SourceMap } from './source-map.js';
import type { Diagnostic } from './types.js';

let compiled: ValidateFunction | undefined;

/** Finds schemas/policy.schema.json above this module (src/, dist/ and dist-bench/ layouts). */
export function schemaPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'schemas', 'policy.schema.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('schemas/policy.schema.json not found next to the rampart package');
    dir = parent;
  }
}

/** The schema itself, built from code (the file under schemas/ is its copy for editors). */
export function policySchema(): Record<string, unknown> {
  return buildPolicySchema();
}

function validator(): ValidateFunction {
  if (!compiled) {
    // `optimize: false`: ajv's pass over the generated code costs 130 ms of every process's start, and saves a few percent of each validation.
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, strictTuples: false, allowUnionTypes: true, code: { optimize: false } });
    // Our own annotation: a human message for a field whose alternatives fail.
    ajv.addVocabulary(['x-message']);
    compiled = ajv.compile(policySchema());
  }
  return compiled;
}

/** Validates one document against the schema; diagnostics carry file positions. */
export function validateSchema(file: string, data: unknown, map: SourceMap): { diagnostics: Diagnostic[]; errorPaths: string[] } {
  const validate = validator();
  if (validate(data)) return { diagnostics: [], errorPaths: [] };
  const errors: ErrorObject[] = validate.errors ?? [];
  return { diagnostics: schemaDiagnostics(file, data, map, errors), errorPaths: errors.map((e) => e.instancePath) };
}
