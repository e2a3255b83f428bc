import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The policy schema's validator, generated code of about 900 KB (scripts/generate-validator.mjs):
 * vite took about 0.9 s of its one thread to transform it, before any fork could load the policy
 * code. The forks import its build from dist/ as Node does, untransformed, as they import the
 * dependencies. dist/ is built from the same file before the tests run (pretest, global-setup.ts).
 */
const BUILT_VALIDATOR = join(import.meta.dirname, 'dist', 'policy', 'schema-validator.generated.js');

export default defineConfig({
  resolve: {
    alias: [{ find: /^(?:\.|.*\/src\/policy)\/schema-validator\.generated\.js$/, replacement: BUILT_VALIDATOR }],
  },
  test: {
    server: { deps: { external: [/\/dist\/policy\/schema-validator\.generated\.js$/] } },
    include: ['test/**/*.test.ts'],
    // The short soak runs on its own (`npm run test:soak`, and in .ci/run): it is half a minute of a 2-core machine.
    exclude: [...configDefaults.exclude, 'test/soak/**'],
    // Builds dist/ once when missing or stale, for the CLI integration tests.
    globalSetup: ['test/global-setup.ts'],
    // Sources compared by value, whatever their class (test/setup/sources.ts).
    setupFiles: ['test/setup/sources.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests start real processes and servers and mostly wait on them (listing lag,
    // settle timeouts, signals): four forks overlap those waits on the two cores CI has.
    // 2026-11-26, the whole suite: 86 to 93 s with two forks, 70 to 73 s with three, 60 to 63 s with four.
    pool: 'forks',
    // A worker runs file after file in one module graph: a fresh graph per file cost more than
    // half of the suite's CPU. So a test file leaves nothing behind: it closes what it starts,
    // restores what it changes (process.env, listeners, the working directory), and never
    // counts on a module being loaded fresh.
    isolate: false,
    // As many forks at least as at most: tinypool ends a fork it finds idle, and vitest then
    // fails the files still queued for it ("Terminating worker thread").
    poolOptions: { forks: { maxForks: 4, minForks: 4, isolate: false } },
  },
});
