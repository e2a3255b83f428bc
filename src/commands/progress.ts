/**
 * One progress line for a long apply on a terminal (contract: "Applying
 * 1200/3300 …"), rewritten in place on standard error, instead of a log record
 * per write. Nothing shows for an apply done within the first half second, and
 * nothing at all without a terminal: CI logs keep their records.
 */

export interface Progress {
  /** One change done. */
  tick(): void;
  /** Clears the line (the report follows). */
  done(): void;
}

export interface ProgressOptions {
  /** Before this, nothing is drawn: a short apply shows only its report. */
  readonly delayMs?: number;
  /** The line is redrawn at most this often. */
  readonly everyMs?: number;
  readonly now?: () => number;
}

const NO_PROGRESS: Progress = { tick: () => undefined, done: () => undefined };

export function progressLine(stream: NodeJS.WriteStream, total: number, options: ProgressOptions = {}): Progress {
  if (!stream.isTTY || total === 0) return NO_PROGRESS;
  const now = options.now ?? Date.now;
  const started = now();
  const delayMs = options.delayMs ?? 500;
  const everyMs = options.everyMs ?? 100;
  let done = 0;
  let drawnAt: number | undefined;
  const draw = () => {
    const percent = Math.floor((done / total) * 100);
    stream.write(`\r\x1b[2KApplying ${done}/${total} (${percent}%)…`);
    drawnAt = now();
  };
  return {
    tick() {
      done += 1;
      const at = now();
      if (at - started < delayMs) return;
      if (drawnAt === undefined || at - drawnAt >= everyMs || done === total) draw();
    },
    done() {
      if (drawnAt !== undefined) stream.write('\r\x1b[2K');
    },
  };
}
