/**
 * SIGTERM / SIGINT handling, the same for every long-running command (`run`,
 * `apply`, `emulator`). The first signal aborts the controller: the command
 * starts nothing new, lets the call in flight finish and exits on its own. A
 * second signal exits at once with 130.
 */
import type { Logger } from './log.js';
import { silentLogger } from './log.js';

export interface ShutdownSignalOptions {
  logger?: Logger;
  /** Called on the second signal. Default `process.exit`. */
  hardExit?: (code: number) => void;
  /** Default `['SIGTERM', 'SIGINT']`. */
  signals?: readonly NodeJS.Signals[];
}

/** Exit code of a hard stop (interrupted). */
export const HARD_EXIT_CODE = 130;

/** Installs the handlers; returns a function that removes them. */
export function onShutdownSignals(controller: AbortController, options: ShutdownSignalOptions = {}): () => void {
  const logger = (options.logger ?? silentLogger()).child({ module: 'signals' });
  const hardExit = options.hardExit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let received = 0;

  const handler = (signal: NodeJS.Signals): void => {
    received += 1;
    if (received === 1 && !controller.signal.aborted) {
      logger.info({ signal }, 'shutting down: finishing the call in flight (send again to stop at once)');
      controller.abort(new Error(`received ${signal}`));
      return;
    }
    logger.warn({ signal }, 'second signal: stopping at once');
    hardExit(HARD_EXIT_CODE);
  };

  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
