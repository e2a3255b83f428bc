/**
 * The compiled documents of the last load, so that a process loading the
 * same policies again (the daemon, every cycle) parses and checks only the
 * files that changed. A file's result is reused when its display path, its
 * text and the limits are the same and no expiry in it lies between the two
 * moments compared with; the checks across files always run again. Only the
 * files of the last load are kept, each by a digest of its text: the texts
 * themselves were 16 MB of the 127 MB a load of 100k rules + 100k IP values
 * held (issue 49).
 */
import { createHash } from 'node:crypto';
import { stillValidAt, type CompiledDocument } from './compile-document.js';
import { compilePolicyText } from './compile-text.js';
import type { PolicyOptions, PolicyText } from './types.js';

interface Entry {
  readonly digest: string;
  readonly limits: string;
  readonly compiled: CompiledDocument;
}

export class DocumentCache {
  private last = new Map<string, Entry>();

  /**
   * One load's view: compiles through the cache and, when the load is done,
   * `keep` makes its files the ones kept. Loads running at the same time each
   * have their own.
   */
  load(options: PolicyOptions, now: number): { compile(input: PolicyText): CompiledDocument; keep(): void } {
    const limits = `${options.maxFileBytes ?? ''}/${options.maxAliasCount ?? ''}`;
    const seen = new Map<string, Entry>();
    return {
      compile: (input) => {
        const hit = this.last.get(input.file);
        const digest = digestOf(input.text);
        const entry =
          hit && hit.digest === digest && hit.limits === limits && stillValidAt(hit.compiled, now)
            ? hit
            : { digest, limits, compiled: compilePolicyText(input, options, now) };
        seen.set(input.file, entry);
        return entry.compiled;
      },
      keep: () => {
        this.last = seen;
      },
    };
  }
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
