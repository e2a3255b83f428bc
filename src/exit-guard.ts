/**
 * A command whose promise never settles (a request lost inside a library, a
 * callback never called) lets the event loop drain, and Node then exits 0 with
 * nothing printed: a broken run that looks like success. `beforeExit` fires
 * exactly then (never on an explicit `process.exit`), so the guard turns it into
 * exit 1 and a line saying why.
 */
import { EXIT } from './exit-codes.js';

export interface ExitTarget {
  once(event: 'beforeExit', listener: () => void): unknown;
  exitCode?: number | string | null | undefined;
}

export const UNSETTLED_MESSAGE =
  'rampart: internal error: the command stopped before it finished (an operation it waited for never completed); '
  + 'nothing after that point was done. Run again with RAMPART_DEBUG=1 and report it [internal]\n';

export function guardExit(
  done: Promise<unknown>,
  target: ExitTarget = process,
  write: (line: string) => void = (line) => process.stderr.write(line),
): void {
  let settled = false;
  const mark = (): void => {
    settled = true;
  };
  done.then(mark, mark);
  target.once('beforeExit', () => {
    if (settled) return;
    write(UNSETTLED_MESSAGE);
    target.exitCode = EXIT.error;
  });
}
