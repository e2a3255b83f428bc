import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicies } from '../../../src/policy/index.js';
import { decodeUtf8 } from '../../../src/policy/utf8.js';

describe('decodeUtf8', () => {
  it('decodes UTF-8, a byte-order mark kept as it was', () => {
    expect(decodeUtf8(Buffer.from('a: "é ✓ 😀"\n'))).toEqual({ ok: true, text: 'a: "é ✓ 😀"\n' });
    expect(decodeUtf8(Buffer.from('\ufeffa: 1'))).toEqual({ ok: true, text: '\ufeffa: 1' });
  });

  it.each([
    ['a lone continuation byte', [0x80], 1, 5],
    ['a Latin-1 byte', [0xe9], 1, 5],
    ['a truncated sequence', [0xe2, 0x9c], 1, 5],
    ['an overlong encoding', [0xc0, 0xaf], 1, 5],
    ['a surrogate', [0xed, 0xa0, 0x80], 1, 5],
  ])('points at %s', (_what, bad, line, col) => {
    const bytes = Buffer.concat([Buffer.from('a: 1\nb: "'), Buffer.from(bad), Buffer.from('"\n')]);
    expect(decodeUtf8(bytes)).toEqual({ ok: false, position: { line: line + 1, col } });
  });

  it('counts columns in characters after earlier multi-byte ones', () => {
    const bytes = Buffer.concat([Buffer.from('x: "éé'), Buffer.from([0xff])]);
    expect(decodeUtf8(bytes)).toEqual({ ok: false, position: { line: 1, col: 7 } });
  });
});

describe('loadPolicies', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rampart-utf8-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a file that is not UTF-8 at the first bad byte, instead of sending U+FFFD', async () => {
    const yaml = Buffer.concat([
      Buffer.from('version: 1\nclient: 10042\napplication: 7\nip_lists:\n  deny:\n    - countries: [KP]\n      reason: "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\n'),
    ]);
    await writeFile(path.join(dir, 'latin1.yaml'), yaml);
    const result = await loadPolicies(dir);
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ line: 7, col: 19, severity: 'error', code: 'invalid-utf8' }),
    ]);
  });
});
