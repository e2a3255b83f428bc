/**
 * `rampart completion`: scripts made from the registered commands, so each
 * command and option completes; the bash one is run in bash.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree, completionScript, type CompletedCommand } from '../../../src/commands/completion.js';
import { COMMAND_NAMES, registerCommands } from '../../../src/commands/index.js';

let commands: CompletedCommand[];
let dir: string;
beforeAll(async () => {
  commands = await commandTree((program) => registerCommands(program, ['node', 'rampart']));
  dir = await mkdtemp(join(tmpdir(), 'rampart-completion-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** What bash offers for the words typed so far (the last one being completed). */
async function bashCompletes(words: string[]): Promise<string[]> {
  const script = join(dir, 'rampart.bash');
  await writeFile(script, completionScript('bash', commands));
  const line = `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _rampart; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', line], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

describe('rampart completion', () => {
  it('knows every command', () => {
    expect(commands.map((c) => c.name).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('bash completes commands, options and their values', async () => {
    expect(await bashCompletes(['rampart', 'pl'])).toEqual(['plan']);
    expect(await bashCompletes(['rampart', 'plan', '--imp'])).toEqual(['--impact', '--impact-window', '--impact-limit']);
    expect(await bashCompletes(['rampart', 'plan', '--format', ''])).toEqual(['text', 'json', 'markdown', 'github']);
    expect(await bashCompletes(['rampart', 'apply', '--tar'])).toEqual(['--target']);
  });

  it('zsh and fish name every command and option', () => {
    const zsh = completionScript('zsh', commands);
    const fish = completionScript('fish', commands);
    expect(zsh.startsWith('#compdef rampart\n')).toBe(true);
    for (const command of commands) {
      expect(zsh).toContain(`'${command.name}:`);
      expect(fish).toContain(`-a ${command.name} -d`);
      for (const option of command.options) {
        expect(zsh).toContain(`'${option.flag}[`);
        expect(fish).toContain(`'__fish_seen_subcommand_from ${command.name}' -l ${option.flag.slice(2)} `);
      }
    }
    expect(fish).toContain("-l format -d 'output format' -x -a 'text json markdown github'");
  });
});
