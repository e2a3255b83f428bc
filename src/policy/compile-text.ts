/**
 * One policy file's text → its compiled document. A file the clean path can
 * read (fast-yaml.ts) is compiled from that data, with its source positions
 * found only when asked for (clean-positions.ts, or the full parse where that
 * declines); if that compile reports anything at all, or the
 * clean path declines the file, the file goes the full way (yaml.ts), so every
 * diagnostic comes from the full parse, at the position it always had.
 */
import { cleanSourceMap } from './clean-positions.js';
import { compileDocument, type CompiledDocument } from './compile-document.js';
import { parseCleanYaml } from './fast-yaml.js';
import { DeferredSourceMap } from './source-map.js';
import { DEFAULT_MAX_FILE_BYTES, type PolicyOptions, type PolicyText } from './types.js';
import { parsePolicyText } from './yaml.js';

export function compilePolicyText(input: PolicyText, options: PolicyOptions, now: number): CompiledDocument {
  const withinSize = Buffer.byteLength(input.text, 'utf8') <= (options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  const clean = withinSize ? parseCleanYaml(input.text) : undefined;
  if (clean) {
    const map = new DeferredSourceMap(() => cleanSourceMap(input.text) ?? parsePolicyText(input, options).map);
    const compiled = compileDocument({ file: input.file, data: clean.data, map, diagnostics: [] }, now);
    if (compiled.diagnostics.length === 0) return compiled;
  }
  return compileDocument(parsePolicyText(input, options), now);
}
