/**
 * No ES module of src/ imports a CommonJS package (src/commonjs.ts says why):
 * every package src/ imports as a value is imported here, in a Node process
 * of its own whose module hooks report each module's format. A package whose
 * ES entry point wraps CommonJS (commander's does) counts as CommonJS too:
 * importing it starts the export scanner just the same.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** `import … from 'x'`, `export … from 'x'`, `import 'x'` and `import('x')`, unless every name it brings is a type. */
const IMPORT = /^\s*(import|export)\s+(type\s)?([^'";]*?)\s*from\s*'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** The packages a source text imports as values, by their bare names. */
function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const [, , typeOnly, names, from, bare, dynamic] = match;
    const specifier = from ?? bare ?? dynamic ?? '';
    if (typeOnly) continue;
    // `import { type A, type B } from 'x'` brings no value either.
    const braces = /^\{([^}]*)\}$/.exec(names?.trim() ?? '');
    if (braces && braces[1]!.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '))) continue;
    found.push(specifier);
  }
  return found.filter((s) => !s.startsWith('.') && !s.startsWith('node:'));
}

describe('CommonJS packages', () => {
  it('reads value imports and skips type-only ones', () => {
    expect(valueImports([
      "import { a } from 'one';",
      "import type { B } from 'two';",
      "import { type C } from 'three';",
      "import { type D, e } from 'four';",
      "import * as F from 'five';",
      "export { g } from 'six';",
      "import 'seven';",
      "const h = await import('eight');",
      "import { i } from './local.js';",
      "import { j } from 'node:fs';",
    ].join('\n'))).toEqual(['one', 'four', 'five', 'six', 'seven', 'eight']);
  });

  it('are never imported by an ES module of src/', () => {
    const packages = [...new Set(sources(SRC).flatMap((file) => valueImports(readFileSync(file, 'utf8'))))].sort();
    expect(packages.length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'rampart-commonjs-'));
    try {
      const hooks = join(dir, 'hooks.mjs');
      writeFileSync(hooks, [
        'export async function load(url, context, next) {',
        '  const result = await next(url, context);',
        "  if (result.format === 'commonjs') process.stdout.write(url + '\\n');",
        '  return result;',
        '}',
      ].join('\n'));
      const register = join(dir, 'register.mjs');
      writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
      // Evaluated as an ES module in the project's root: the packages resolve as src/'s imports do.
      const probe = packages.map((name) => `await import(${JSON.stringify(name)});`).join('\n');
      const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '--eval', probe], { cwd: ROOT, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.split('\n').filter(Boolean), `imported as CommonJS from ${packages.join(', ')}`).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
