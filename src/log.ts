import type * as Pino from 'pino';
import type { Logger, LoggerOptions } from 'pino';
import { requireCommonJs } from './commonjs.js';
import { ApiError, isRampartError } from './errors.js';
import { redactSecrets } from './secrets.js';

export type { Logger };

const { pino } = requireCommonJs('pino') as typeof Pino;

/** Paths pino replaces with "[redacted]" wherever they appear in a log line. */
export const REDACT_PATHS = [
  'token', 'secret', 'apiToken', 'apiSecret',
  '*.token', '*.secret', '*.apiToken', '*.apiSecret',
  'headers["x-serviceapi-token"]', 'headers["x-serviceapi-secret"]',
  '*.headers["x-serviceapi-token"]', '*.headers["x-serviceapi-secret"]',
];

export interface LogOptions {
  level?: string;
  /** `json` for machines; `pretty` for a person at a terminal. Default: pretty on a TTY. */
  format?: 'json' | 'pretty';
  /** Where lines go; standard error by default so stdout holds only plans and reports. */
  destination?: NodeJS.WritableStream;
  /**
   * A one-shot command (plan, apply, export, tune): on a terminal its result
   * is its output, so unless a level is asked for, only what needs attention
   * (warn and above) follows it. JSON logs (CI, files) keep every record.
   */
  oneShot?: boolean;
}

/** The level a one-shot command logs at on a terminal when none is asked for. */
const ONE_SHOT_TERMINAL_LEVEL = 'warn';

/**
 * A person reads the logs: standard error is a terminal and the logs are
 * readable lines, not JSON (the default there). JSON logs are for machines,
 * terminal or not, and keep every record as it happens.
 */
export function personAtTerminal(format: LogOptions['format'], stderr: { readonly isTTY?: boolean } = process.stderr): boolean {
  return stderr.isTTY === true && (format ?? 'pretty') === 'pretty';
}

/** The process logger. Logs go to stderr; stdout is for plans and reports. */
export function createLogger(options: LogOptions = {}): Logger {
  const format = options.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const quiet = options.oneShot === true && personAtTerminal(format);
  const level = options.level ?? process.env.RAMPART_LOG_LEVEL ?? (quiet ? ONE_SHOT_TERMINAL_LEVEL : 'info');
  const base: LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    // By value too, whatever field carries it: an error body or a cause a server echoed the token into.
    hooks: { streamWrite: redactSecrets },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (options.destination) return pino(base, options.destination as Pino.DestinationStream);
  if (format === 'pretty') {
    return pino({
      ...base,
      transport: {
        target: 'pino-pretty',
        // One line per event: a record's fields follow its message, not an indented block under it. Written
        // synchronously by the worker, so a flush puts the lines before what the command prints next (its error).
        options: { destination: 2, colorize: !process.env.NO_COLOR, ignore: 'pid,hostname', singleLine: true, sync: true },
      },
    });
  }
  return pino(base, pino.destination(2));
}

/** A logger that drops everything: for library callers and unit tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * An error Rampart raises on purpose is an answer, not a bug: logged by its
 * code and message (and where it called), without a stack trace. Anything else
 * keeps pino's full form, stack included, for the bug report.
 */
export function serializeError(error: unknown): unknown {
  if (!isRampartError(error)) return pino.stdSerializers.err(error as Error);
  return {
    type: error.name,
    code: error.code,
    message: error.message,
    ...(error instanceof ApiError
      ? { route: error.route, host: error.host, httpStatus: error.httpStatus }
      : {}),
  };
}
