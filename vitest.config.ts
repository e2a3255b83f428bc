import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
