/** The apply progress line: drawn only on a terminal, only after half a second, at most every 100 ms, cleared at the end. */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../src/commands/progress.js';

function terminal(isTTY = true) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream, written };
}

describe('the apply progress line', () => {
  it('says nothing for a short apply, then redraws one line in place, and clears it', () => {
    let now = 0;
    const { stream, written } = terminal();
    const progress = progressLine(stream, 300, { now: () => now });
    for (let i = 0; i < 10; i++) progress.tick();
    expect(written).toEqual([]);
    now = 600;
    progress.tick();
    now = 650;
    progress.tick();
    now = 700;
    progress.tick();
    expect(written).toEqual(['\r\x1b[2KApplying 11/300 (3%)…', '\r\x1b[2KApplying 13/300 (4%)…']);
    progress.done();
    expect(written.at(-1)).toBe('\r\x1b[2K');
  });

  it('draws the last change whenever it comes, and nothing without a terminal', () => {
    let now = 1_000;
    const { stream, written } = terminal();
    const progress = progressLine(stream, 2, { now: () => now, delayMs: 0 });
    progress.tick();
    now += 1;
    progress.tick();
    expect(written).toEqual(['\r\x1b[2KApplying 1/2 (50%)…', '\r\x1b[2KApplying 2/2 (100%)…']);
    const pipe = terminal(false);
    const quiet = progressLine(pipe.stream, 5, { delayMs: 0 });
    quiet.tick();
    quiet.done();
    expect(pipe.written).toEqual([]);
  });
});
