/**
 * Loads the CommonJS packages Rampart uses with `require`, never `import`.
 * The first CommonJS module an ES module imports starts Node's export scanner
 * (cjs-module-lexer, compiled from WebAssembly), which then stays for the
 * life of the process: the idle daemon held 70 to 74 MB (median 72) with
 * the imports and 70 to 71 MB without (18 runs each), and every start
 * scanned for about 16 ms. `require` gives the same module an `import` would.
 *
 * Types still come from `import type`. A test (test/unit/commonjs.test.ts)
 * fails on a value import of a CommonJS package anywhere in src/.
 */
import { createRequire } from 'node:module';

export const requireCommonJs: NodeJS.Require = createRequire(import.meta.url);
