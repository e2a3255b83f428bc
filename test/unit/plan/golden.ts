import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/plan');

/** Compares with test/fixtures/plan/NAME; `UPDATE_GOLDEN=1` rewrites it (review the diff before committing). */
export function golden(name: string, actual: string): void {
  const file = join(FIXTURES, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} missing: run with UPDATE_GOLDEN=1`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
