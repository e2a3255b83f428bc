import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The short soak runs on its own (`npm run test:soak`, and in .ci/run): it is half a minute of a 2-core machine.
    exclude: [...configDefaults.exclude, 'test/soak/**'],
    // Builds dist/ once when missing or stale, for the CLI integration tests.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests start real processes and servers; two cores are all CI has.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
