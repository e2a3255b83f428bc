import { afterEach, describe, expect, it } from 'vitest';
import { HARD_EXIT_CODE, onShutdownSignals } from '../../src/signals.js';

const disposers: Array<() => void> = [];
afterEach(() => { for (const dispose of disposers.splice(0)) dispose(); });

describe('onShutdownSignals', () => {
  it('aborts on the first signal and hard-exits with 130 on the second', () => {
    const controller = new AbortController();
    const exits: number[] = [];
    const before = process.listenerCount('SIGTERM');
    disposers.push(onShutdownSignals(controller, { hardExit: (code) => exits.push(code) }));
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);

    process.emit('SIGTERM', 'SIGTERM');
    expect(controller.signal.aborted).toBe(true);
    expect(exits).toEqual([]);

    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([HARD_EXIT_CODE]);
    expect(HARD_EXIT_CODE).toBe(130);
  });

  it('removes its listeners when disposed', () => {
    const controller = new AbortController();
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    const dispose = onShutdownSignals(controller, { hardExit: () => undefined });
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
    dispose();
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
    expect(process.listenerCount('SIGINT')).toBe(before.int);
  });
});
