/**
 * Retries on a person's terminal are held at `debug` and told at `warn` only
 * when the run fails; JSON logs keep a `warn` record per retry as it happens.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { retryLog, RETRY_MESSAGE } from '../../../src/api/retry-log.js';
import { ApiServerError } from '../../../src/errors.js';
import { createLogger, personAtTerminal } from '../../../src/log.js';

function memoryLogger() {
  const lines: { level: number; msg: string; attempt?: number; code?: string; dropped?: number }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  return { logger: createLogger({ destination, level: 'debug' }), lines };
}

const DEBUG = 20;
const WARN = 40;
const retry = (attempt: number) => ({ route: 'POST /v1/objects/hint', attempt, delayMs: 10, error: new ApiServerError('the service failed (503)') });
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('the retry log', () => {
  it('held: each retry is a debug record, and none is a warning while the run goes well', async () => {
    const { logger, lines } = memoryLogger();
    const log = retryLog(logger, true);
    log.retried(retry(1));
    log.retried(retry(2));
    await flushed();
    expect(lines.map((l) => [l.level, l.msg, l.attempt])).toEqual([[DEBUG, RETRY_MESSAGE, 1], [DEBUG, RETRY_MESSAGE, 2]]);
  });

  it('held: a failed run tells each retry at warn, once', async () => {
    const { logger, lines } = memoryLogger();
    const log = retryLog(logger, true);
    log.retried(retry(1));
    log.retried(retry(2));
    await log.failed();
    await log.failed();
    await flushed();
    expect(lines.filter((l) => l.level === WARN).map((l) => [l.msg, l.attempt, l.code])).toEqual([
      [RETRY_MESSAGE, 1, 'api_server'], [RETRY_MESSAGE, 2, 'api_server'],
    ]);
  });

  it('held: a run that retried for long tells its last retries and counts the rest', async () => {
    const { logger, lines } = memoryLogger();
    const log = retryLog(logger, true);
    for (let attempt = 1; attempt <= 25; attempt++) log.retried(retry(attempt));
    await log.failed();
    await flushed();
    const warnings = lines.filter((l) => l.level === WARN);
    expect(warnings[0]).toMatchObject({ dropped: 5 });
    expect(warnings.slice(1).map((l) => l.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
  });

  it('not held (JSON logs, the daemon): each retry is a warning as it happens, and a failure adds nothing', async () => {
    const { logger, lines } = memoryLogger();
    const log = retryLog(logger, false);
    log.retried(retry(1));
    await log.failed();
    await flushed();
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[WARN, RETRY_MESSAGE]]);
  });
});

describe('a person at a terminal', () => {
  it('is a terminal on standard error with readable logs; JSON logs are for machines, terminal or not', () => {
    expect(personAtTerminal(undefined, { isTTY: true })).toBe(true);
    expect(personAtTerminal('pretty', { isTTY: true })).toBe(true);
    expect(personAtTerminal('json', { isTTY: true })).toBe(false);
    expect(personAtTerminal(undefined, { isTTY: false })).toBe(false);
    expect(personAtTerminal('pretty', {})).toBe(false);
  });
});
