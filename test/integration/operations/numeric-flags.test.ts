/**
 * Every numeric flag refuses a number past the safe integer range with a
 * usage error that names the flag and quotes the value as written, before
 * anything is read or written; none is read rounded
 * (`--impact-limit 99999999999999999999` was taken as 1e20 and shown so).
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { ROOT } from '../../helpers/cli.js';

const HUGE = '99999999999999999999';
const POLICIES = ['--policies', `${ROOT}/policies`];

/** Each flag with the command that takes it (and what else that command needs to reach the flag's check). */
const FLAGS: [flag: string, command: string[]][] = [
  ['--impact-limit', ['plan', '--emulator', ...POLICIES]],
  ['--impact-window', ['plan', '--emulator', ...POLICIES]],
  ['--concurrency', ['plan', '--emulator', ...POLICIES]],
  ['--request-timeout', ['plan', '--emulator', ...POLICIES]],
  ['--emulator-lag', ['plan', '--emulator', ...POLICIES]],
  ['--timeout', ['plan', '--emulator', ...POLICIES]],
  ['--min-owned', ['apply', '--emulator', ...POLICIES]],
  ['--max-delete-share', ['apply', '--emulator', ...POLICIES]],
  ['--settle-timeout', ['apply', '--emulator', ...POLICIES]],
  ['--interval', ['run', '--emulator', '--once', ...POLICIES]],
  ['--concurrency', ['doctor', '--emulator', ...POLICIES]],
  ['--client', ['export', '--emulator']],
  ['--client', ['tune', '--emulator', '--request-id', 'e3b0c44298fc1c14', ...POLICIES]],
  ['--since', ['tune', '--emulator', '--request-id', 'e3b0c44298fc1c14', ...POLICIES]],
  ['--number', ['ci', 'comment', '--print']],
  ['--listing-lag', ['emulator', '--listen', '127.0.0.1:0', '--token', 'dev-token-0123']],
  ['--max-body-bytes', ['emulator', '--listen', '127.0.0.1:0', '--token', 'dev-token-0123']],
];

describe(`a numeric flag given ${HUGE}`, () => {
  it.each(FLAGS)('%s (%j) is a usage error naming the flag and the value as written', async (flag, command) => {
    const result = await runCliInProcess([...command, flag, HUGE]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(flag);
    expect(result.stderr).toContain(`"${HUGE}"`);
    expect(result.stderr).toMatch(/\[usage\]$/m);
    expect(result.stderr).not.toMatch(/1e\+?20|100000000000000000000/);
    expect(result.stdout).toBe('');
  });
});
