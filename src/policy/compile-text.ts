/**
 * One policy file's text → its compiled document, from one reading of the
 * text: the clean path's single js-yaml pass (clean-yaml.ts), which builds the
 * data and the source map together, or, for a file it declines, the full
 * parse (yaml.ts). Either way the file is compiled once; the clean path's
 * positions are the full parse's, so its diagnostics land where the full
 * parse would put them.
 */
import { readCleanYaml } from './clean-yaml.js';
import { compileDocument, type CompiledDocument } from './compile-document.js';
import { DEFAULT_MAX_FILE_BYTES, type PolicyOptions, type PolicyText } from './types.js';
import { parsePolicyText } from './yaml.js';

export function compilePolicyText(input: PolicyText, options: PolicyOptions, now: number): CompiledDocument {
  const withinSize = Buffer.byteLength(input.text, 'utf8') <= (options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  const clean = withinSize ? readCleanYaml(input.text) : undefined;
  const parsed = clean ? { file: input.file, data: clean.data, map: clean.map, diagnostics: [] } : parsePolicyText(input, options);
  return compileDocument(parsed, now);
}
