/** A mistyped command or option: the error and its suggestion, one line of guidance, not the whole help. */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';

describe('a typo', () => {
  it.each([
    [['plna'], "error: unknown command 'plna'\n(Did you mean plan?)\n"],
    [['plan', '--formt', 'json'], "error: unknown option '--formt'\n(Did you mean --format?)\n"],
  ])('%j: the suggestion, then one line', async (args, error) => {
    const result = await runCliInProcess(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${error}(rampart --help lists the commands; rampart <command> --help their options)\n`);
  });
});
