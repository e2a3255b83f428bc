/** `fmt --diff`'s unified diff: the same hunks GNU `diff -u` prints, headers as git names the files. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/fmt/diff.js';

const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`).join('\n') + '\n';

/** `diff -u`'s hunks for the two texts (its headers left out). */
function gnuHunks(before: string, after: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-diff-'));
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  const out = spawnSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' }).stdout;
  return out.split('\n').slice(2).join('\n');
}

describe('unifiedDiff', () => {
  const base = lines(20, 'line ');
  it.each([
    ['one line changed', base, base.replace('line 7\n', 'line seven\n')],
    ['two changes far apart, two hunks', base, base.replace('line 2\n', 'two\n').replace('line 17\n', 'seventeen\n')],
    ['two changes close together, one hunk', base, base.replace('line 5\n', 'five\n').replace('line 9\n', 'nine\n')],
    ['lines added at the end', base, `${base}added 1\nadded 2\n`],
    ['lines removed at the start', base, base.split('\n').slice(3).join('\n')],
  ])('%s: as diff -u', (_what, before, after) => {
    const ours = unifiedDiff('policies/p.yaml', before, after);
    expect(ours.split('\n').slice(0, 2)).toEqual(['--- a/policies/p.yaml', '+++ b/policies/p.yaml']);
    expect(ours.split('\n').slice(2).join('\n')).toBe(gnuHunks(before, after));
  });

  it('a large file changed in one place is aligned around the change (a table of the whole file would not fit in memory)', () => {
    const big = lines(200_000, 'line ');
    const diff = unifiedDiff('p.yaml', big, big.replace('line 100000\n', 'changed\n'));
    expect(diff).toContain('@@ -99998,7 +99998,7 @@\n line 99997\n line 99998\n line 99999\n-line 100000\n+changed\n');
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('p.yaml', base, base)).toBe('');
  });
});
