/**
 * The shell around the pure pipeline: read the files, hash them, hand the
 * texts to validateDocuments. An empty or missing directory is reported as
 * such (`files: []`, `exists`); deciding what that means is the caller's job.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { findPolicyFiles } from './files.js';
import { DEFAULT_MAX_FILE_BYTES, sortDiagnostics, type Diagnostic, type PolicyLoadResult, type PolicyOptions, type PolicyText } from './types.js';
import { validateDocuments } from './validate.js';
import { parsePolicyText } from './yaml.js';

export async function loadPolicies(dir: string, options: PolicyOptions = {}): Promise<PolicyLoadResult> {
  const found = await findPolicyFiles(dir);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const hash = createHash('sha256');
  const texts: PolicyText[] = [];
  const diagnostics: Diagnostic[] = [];
  // Display paths go through the directory as given, not the resolved snapshot.
  const display = (rel: string): string =>
    relative(process.cwd(), found.single ? resolve(dir) : resolve(dir, rel)) || rel;

  for (const problem of found.problems) {
    const file = relative(process.cwd(), problem.path) || problem.path;
    diagnostics.push({ file, line: 0, col: 0, severity: 'error', code: 'read-error', message: `cannot read: ${problem.message}` });
  }
  for (const file of found.files) {
    const shown = display(file.relative);
    try {
      const size = (await stat(file.path)).size;
      if (size > maxBytes) {
        hash.update(`${file.relative}\0too-large:${size}\0`);
        diagnostics.push({ file: shown, line: 0, col: 0, severity: 'error', code: 'file-too-large', message: `file is ${size} bytes; policy files may hold at most ${maxBytes} bytes` });
        continue;
      }
      const content = await readFile(file.path);
      hash.update(`${file.relative}\0${content.length}\0`).update(content);
      texts.push({ file: shown, text: content.toString('utf8') });
    } catch (error) {
      const code = (error as { code?: string } | null)?.code ?? String(error);
      diagnostics.push({ file: shown, line: 0, col: 0, severity: 'error', code: 'read-error', message: `cannot read: ${code}` });
    }
  }

  const result = validateDocuments(texts.map((text) => parsePolicyText(text, options)), options);
  const all = sortDiagnostics([...diagnostics, ...result.diagnostics]);
  const ok = !all.some((d) => d.severity === 'error');
  return {
    root: found.root,
    exists: found.exists,
    files: found.files.map((f) => display(f.relative)),
    diagnostics: all,
    ...(ok && result.desired ? { desired: result.desired } : {}),
    digest: hash.digest('hex'),
  };
}
