/** Commands are imported only when run: the table in commands/index.ts must name what each module registers. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, registerCommands } from '../../../src/commands/index.js';
import { packageVersion } from '../../../src/version.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';

const names = (program: Command): string[] => program.commands.map((c) => c.name());

describe('command registry', () => {
  it('registers every command, in the table order, when argv names none', async () => {
    const program = new Command('rampart');
    await registerCommands(program, ['node', 'rampart', '--help']);
    expect(names(program)).toEqual(COMMAND_NAMES);
  });

  it.each(COMMAND_NAMES)('registers only %s when argv names it', async (name) => {
    const program = new Command('rampart');
    await registerCommands(program, ['node', 'rampart', name, '--policies', 'x']);
    expect(names(program)).toEqual([name]);
  });

  it('registers every command for a word that is no command (commander then suggests one)', async () => {
    const program = new Command('rampart');
    await registerCommands(program, ['node', 'rampart', 'valdate']);
    expect(names(program)).toEqual(COMMAND_NAMES);
  });

  it('--help lists every command, none hidden (ci and doctor included)', async () => {
    const run = await runCliInProcess(['--help']);
    expect(run.code).toBe(0);
    const listed = [...run.stdout.split('Commands:')[1]!.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
    expect(listed).toEqual([...COMMAND_NAMES, 'help']);
  });

  it.each(['--version', '-V'])('prints the version for %s alone', async (flag) => {
    const run = await runCliInProcess([flag]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${await packageVersion()}\n`);
  });
});
