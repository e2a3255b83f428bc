import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardExit, UNSETTLED_MESSAGE } from '../../src/exit-guard.js';

function fakeProcess(): EventEmitter & { exitCode?: number | string | null } {
  return new EventEmitter();
}

describe('guardExit', () => {
  it('turns a drained event loop with the command still pending into exit 1 and a line', () => {
    const target = fakeProcess();
    const lines: string[] = [];
    guardExit(new Promise(() => {}), target, (line) => lines.push(line));
    target.emit('beforeExit');
    expect(target.exitCode).toBe(1);
    expect(lines).toEqual([UNSETTLED_MESSAGE]);
  });

  it('leaves a command that finished alone, whatever it ended in', async () => {
    for (const done of [Promise.resolve(), Promise.reject(new Error('handled elsewhere'))]) {
      const target = fakeProcess();
      target.exitCode = 2;
      const lines: string[] = [];
      guardExit(done, target, (line) => lines.push(line));
      await done.catch(() => undefined);
      await Promise.resolve();
      target.emit('beforeExit');
      expect(target.exitCode).toBe(2);
      expect(lines).toEqual([]);
    }
  });
});
