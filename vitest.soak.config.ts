/** `npm run test:soak`: the short fault-injection soak (test/soak/), kept out of `npm test`. */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: { ...base.test, projects: undefined, include: ['test/soak/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
