import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Pool } from '../../src/api/pool.js';
import { leanFallbacks, requireLean } from '../../src/lean-require.js';

const require = createRequire(import.meta.url);

describe('requireLean', () => {
  it('loads undici\'s pool from its internal modules, not the package entry point', () => {
    // Fails when an upgrade moved a path: Rampart still works, on the whole package (more memory at idle).
    expect(leanFallbacks()).not.toContain('undici');
    expect(Pool).toBe(require('undici/lib/dispatcher/pool.js'));
    // The request call undici's entry point gives every dispatcher.
    expect(typeof Pool.prototype.request).toBe('function');
  });

  it('falls back to the whole package when an internal module is not where it was, and says so', () => {
    // A made-up name: the list is the module's for the whole test run.
    const loaded = requireLean('a-package-that-moved', (load) => load('undici/lib/no-such-module.js') as string, () => 'whole');
    expect(loaded).toBe('whole');
    expect(leanFallbacks()).toContain('a-package-that-moved');
  });

  it('falls back when the package gained an exports map that hides the module', () => {
    const hidden = Object.assign(new Error('Package subpath is not defined by "exports"'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    const loaded = requireLean('a-package-with-exports', () => {
      throw hidden;
    }, () => 'whole');
    expect(loaded).toBe('whole');
    expect(leanFallbacks()).toContain('a-package-with-exports');
  });

  it('passes on an error that is not a missing module', () => {
    expect(() => requireLean('a-broken-package', () => {
      throw new TypeError('broken');
    }, () => 'whole')).toThrow('broken');
    expect(leanFallbacks()).not.toContain('a-broken-package');
  });
});
