/** The question apply and adopt ask on a terminal: only `yes` goes on; no terminal, no question. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CONFIRM_QUESTION, confirmed, shouldAsk } from '../../../src/commands/confirm.js';

function answer(text: string | undefined): Promise<{ ok: boolean; asked: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let asked = '';
  output.on('data', (chunk: Buffer) => { asked += chunk.toString(); });
  const result = confirmed(input, output);
  if (text === undefined) input.end();
  else input.write(text);
  return result.then((ok) => ({ ok, asked }));
}

describe('confirming an apply', () => {
  it('asks once and goes on only for yes', async () => {
    expect(await answer('yes\n')).toEqual({ ok: true, asked: CONFIRM_QUESTION });
    for (const no of ['y\n', 'YES please\n', '\n', 'no\n']) expect((await answer(no)).ok, no).toBe(false);
  });

  it('an input that ends without an answer is a no', async () => {
    expect((await answer(undefined)).ok).toBe(false);
  });

  it('asks only a terminal, and never with --auto-approve', () => {
    const tty = { isTTY: true } as NodeJS.ReadStream;
    const pipe = { isTTY: false } as NodeJS.ReadStream;
    expect(shouldAsk(tty, false)).toBe(true);
    expect(shouldAsk(tty, true)).toBe(false);
    expect(shouldAsk(pipe, false)).toBe(false);
  });
});
