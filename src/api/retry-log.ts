/**
 * Where a run's retries are told. In JSON logs (CI, files, the daemon) each
 * retry is a `warn` record as it happens: machines keep every record. On a
 * person's terminal a retry that then succeeds is noise before a good result,
 * so a one-shot command holds them: each is logged at `debug` as it happens,
 * and only a run that fails tells them at `warn`, as what led to its error.
 */
import type { ApiError } from '../errors.js';
import type { Logger } from '../log.js';

export interface RetryInfo {
  readonly route: string;
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: ApiError;
}

export interface RetryLog {
  retried(info: RetryInfo): void;
  /** The run failed: the retries held back are told now, and written before its error is. */
  failed(): Promise<void>;
}

/** Held retries past this many are counted, not kept: a run that retried for minutes needs the last few to explain it. */
const MAX_HELD = 20;

export const RETRY_MESSAGE = 'retrying an API call';

export function retryLog(logger: Logger, hold: boolean): RetryLog {
  if (!hold) return { retried: (info) => logger.warn(retryFields(info), RETRY_MESSAGE), failed: () => Promise.resolve() };
  let held: Record<string, unknown>[] = [];
  let dropped = 0;
  return {
    retried(info) {
      const fields = { ...retryFields(info), at: new Date().toISOString() };
      logger.debug(fields, RETRY_MESSAGE);
      held.push(fields);
      if (held.length > MAX_HELD) {
        held.shift();
        dropped += 1;
      }
    },
    async failed() {
      if (held.length === 0) return;
      if (dropped > 0) logger.warn({ dropped }, `${dropped} earlier retries are not shown`);
      for (const fields of held) logger.warn(fields, RETRY_MESSAGE);
      held = [];
      dropped = 0;
      // The terminal's log lines are written by a worker thread: wait for them, so they come before the error.
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
    },
  };
}

/** A retry line says what failed and where, so twenty of them are never needed to find out. */
function retryFields(info: RetryInfo): Record<string, unknown> {
  return {
    route: info.route, attempt: info.attempt, delayMs: info.delayMs, code: info.error.code,
    ...(info.error.host ? { host: info.error.host } : {}),
    reason: info.error.message,
  };
}
