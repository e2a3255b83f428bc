/**
 * A one-shot command run by a person at a terminal: retries that end in an
 * answer stay at `debug`; a run that fails tells them at `warn`. Through the
 * real client against the emulator's scripted 503s.
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, runConnected } from '../../../src/commands/connect.js';
import { createLogger } from '../../../src/log.js';
import { TEST_TOKEN, useTestEmulator } from '../../helpers/emulator.js';

const ROUTE = 'POST /v1/objects/hint';
const emulator = useTestEmulator();
const saved = { ...process.env };
beforeEach(() => {
  process.env.RAMPART_API_TOKEN = TEST_TOKEN;
  process.env.RAMPART_RETRY_BASE_MS = '5';
});
afterEach(() => {
  process.env = { ...saved };
});

async function listRules(holdRetries: boolean, failures: number) {
  const emu = await emulator.start();
  emu.control.addFault({ route: ROUTE, kind: 'status', status: 503, count: failures });
  const records: { level: number; msg: string }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) records.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const logger = createLogger({ destination, level: 'debug' });
  const connection = await connect({ apiUrl: emu.url, owner: 'rampart', concurrency: 2, requestTimeout: 5_000, ipApi: 'v4' }, logger, { failFast: true, holdRetries });
  const run = runConnected(connection, async () => {
    await connection.api.listHints(10042, 0, 1);
    return 0;
  });
  const outcome = await run.then(() => 'ok', (error: { code?: string }) => error.code);
  await new Promise((resolve) => setImmediate(resolve));
  const retries = records.filter((r) => r.msg === 'retrying an API call');
  return { outcome, debug: retries.filter((r) => r.level === 20).length, warn: retries.filter((r) => r.level === 40).length };
}

describe('retries of a one-shot command', () => {
  it('held for a person: two retries then an answer are debug records only', async () => {
    expect(await listRules(true, 2)).toEqual({ outcome: 'ok', debug: 2, warn: 0 });
  });

  it('held for a person: a run that fails tells its retries at warn', async () => {
    // Six attempts in all: five retries, then the error.
    expect(await listRules(true, 10)).toEqual({ outcome: 'api_server', debug: 5, warn: 5 });
  });

  it('not held (JSON logs): each retry is a warning as it happens', async () => {
    expect(await listRules(false, 2)).toEqual({ outcome: 'ok', debug: 0, warn: 2 });
  });
});
