/**
 * The shell around the pure pipeline: read the files, hash them, hand the
 * texts to validateDocuments. An empty or missing directory is reported as
 * such (`files: []`, `exists`); deciding what that means is the caller's job.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { DocumentCache } from './cache.js';
import { findPolicyFiles, type PolicyFile } from './files.js';
import type { Diagnostic } from '../diagnostic.js';
import { DEFAULT_MAX_FILE_BYTES, sortDiagnostics, type PolicyLoadResult, type PolicyOptions } from './types.js';
import type { CompiledDocument } from './compile-document.js';
import { decodeUtf8 } from './utf8.js';
import { redactSecrets } from '../secrets.js';
import { combineDocuments, nowSeconds } from './validate.js';

/** Files unchanged since the last load in this process are not parsed and checked again. */
const cache = new DocumentCache();

interface FileRead {
  content?: Buffer;
  size?: number;
  error?: string;
}

export async function loadPolicies(dir: string, options: PolicyOptions = {}): Promise<PolicyLoadResult> {
  const found = await findPolicyFiles(dir);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const hash = createHash('sha256');
  const diagnostics: Diagnostic[] = [];
  // Display paths go through the directory as given, not the resolved snapshot.
  const display = (rel: string): string =>
    relative(process.cwd(), found.single ? resolve(dir) : resolve(dir, rel)) || rel;

  for (const problem of found.problems) {
    const file = relative(process.cwd(), problem.path) || problem.path;
    diagnostics.push({ file, line: 0, col: 0, severity: 'error', code: 'read-error', message: `cannot read: ${problem.message}` });
  }
  // One file at a time, read, hashed, decoded and compiled: no file's bytes or text outlive its turn (at
  // 100k rules + 100k IP values, holding them all cost 38 MB of the load's peak). Hashed in sorted order
  // so the digest is stable.
  const session = cache.load(options, nowSeconds(options));
  const compiled: CompiledDocument[] = [];
  for (const file of found.files) {
    const read = readPolicyFile(file, maxBytes);
    const shown = display(file.relative);
    if (read.content) {
      hash.update(`${file.relative}\0${read.content.length}\0`).update(read.content);
      const decoded = decodeUtf8(read.content);
      if (decoded.ok) compiled.push(session.compile({ file: shown, text: decoded.text }));
      else {
        diagnostics.push({
          file: shown, ...decoded.position, severity: 'error', code: 'invalid-utf8',
          message: 'bytes that are not UTF-8: policy files must be UTF-8 (save the file as UTF-8)',
        });
      }
    } else if (read.size !== undefined) {
      hash.update(`${file.relative}\0too-large:${read.size}\0`);
      diagnostics.push({ file: shown, line: 0, col: 0, severity: 'error', code: 'file-too-large', message: `file is ${read.size} bytes; policy files may hold at most ${maxBytes} bytes` });
    } else {
      diagnostics.push({ file: shown, line: 0, col: 0, severity: 'error', code: 'read-error', message: `cannot read: ${read.error ?? 'unknown error'}` });
    }
  }
  session.keep();
  const result = combineDocuments(compiled);
  // A message quotes what it read: a known secret (a token a file held) never leaves in one.
  const all = sortDiagnostics([...diagnostics, ...result.diagnostics]).map(redactDiagnostic);
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

function redactDiagnostic(diagnostic: Diagnostic): Diagnostic {
  const message = redactSecrets(diagnostic.message);
  return message === diagnostic.message ? diagnostic : { ...diagnostic, message };
}

/**
 * One file, read synchronously: policy files are small and local, and through
 * the thread pool each one cost a stat, an open, an fstat, a read and a close
 * as separate round trips (1,000 files: 150 to 190 ms of CPU; read in line:
 * 23 to 38 ms, the event loop held that long). A file over the limit at open
 * is not read.
 */
function readPolicyFile(file: PolicyFile, maxBytes: number): FileRead {
  let fd: number | undefined;
  try {
    fd = openSync(file.path, 'r');
    const { size } = fstatSync(fd);
    if (size > maxBytes) return { size };
    // Read to the end, as readFile did: a file rewritten while it is read may have grown since the fstat.
    const chunks: Buffer[] = [];
    let total = 0;
    for (let chunk = Buffer.allocUnsafe(size + 1); ; chunk = Buffer.allocUnsafe(64 * 1024)) {
      const count = readSync(fd, chunk, 0, chunk.length, null);
      if (count === 0) break;
      chunks.push(count === chunk.length ? chunk : chunk.subarray(0, count));
      total += count;
      if (total > maxBytes) return { size: total };
    }
    return { content: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total) };
  } catch (error) {
    return { error: (error as { code?: string } | null)?.code ?? String(error) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
