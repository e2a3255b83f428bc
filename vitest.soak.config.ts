/** `npm run test:soak`: the short fault-injection soak (test/soak/), kept out of `npm test`. */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test, projects: undefined, include: ['test/soak/**/*.test.ts'], exclude: ['**/node_modules/**'],
    // One file: one fork, with the machine to itself (the suite's four would start three idle).
    poolOptions: { forks: { maxForks: 1, minForks: 1, isolate: false } },
  },
});
