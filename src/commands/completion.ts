/**
 * `rampart completion bash|zsh|fish`: a completion script for the shell,
 * made from the commands and options as they are registered, so it never
 * falls behind them. Install it as each shell expects:
 *
 *   bash: `source <(rampart completion bash)` in ~/.bashrc
 *   zsh:  `rampart completion zsh > "${fpath[1]}/_rampart"`
 *   fish: `rampart completion fish > ~/.config/fish/completions/rampart.fish`
 */
import type { Command } from 'commander';
import { Command as CommandClass } from './commander.js';
import type { RegisterAll } from './command-module.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function register(program: Command, registerAll: RegisterAll): void {
  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .argument('<shell>', `one of ${SHELLS.join(', ')}`)
    .action(async (shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        process.stderr.write(`rampart completion: no completion for "${shell}": use ${SHELLS.join(', ')}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(completionScript(shell as Shell, await commandTree(registerAll)));
    });
}

/** A command as completion needs it: its name, what it does, and its options. */
export interface CompletedCommand {
  readonly name: string;
  readonly description: string;
  readonly options: readonly { readonly flag: string; readonly description: string; readonly choices?: readonly string[] }[];
}

/** Every command and its options, registered on a program of their own. */
export async function commandTree(registerAll: RegisterAll): Promise<CompletedCommand[]> {
  const program = new CommandClass('rampart');
  await registerAll(program);
  return program.commands
    .map((command) => ({
      name: command.name(),
      description: command.description(),
      options: command.options
        .filter((option) => !option.hidden && option.long !== undefined)
        .map((option) => ({ flag: option.long as string, description: option.description, ...(option.argChoices ? { choices: option.argChoices } : {}) })),
    }));
}

export function completionScript(shell: Shell, commands: readonly CompletedCommand[]): string {
  switch (shell) {
    case 'bash':
      return bash(commands);
    case 'zsh':
      return zsh(commands);
    case 'fish':
      return fish(commands);
  }
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(commands: readonly CompletedCommand[]): string {
  const cases = commands.map((c) => {
    const choices = c.options.filter((o) => o.choices).map((o) => `      ${o.flag}) COMPREPLY=($(compgen -W ${quote(o.choices?.join(' ') ?? '')} -- "$cur")); return ;;`);
    return `    ${c.name})\n      case "$prev" in\n${choices.join('\n')}${choices.length ? '\n' : ''}      esac\n      COMPREPLY=($(compgen -W ${quote(c.options.map((o) => o.flag).join(' '))} -- "$cur"))\n      [[ "$cur" == -* ]] || COMPREPLY+=($(compgen -f -- "$cur"))\n      ;;`;
  });
  return `# bash completion for rampart: source <(rampart completion bash)
_rampart() {
  local cur prev command
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  command="\${COMP_WORDS[1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W ${quote(commands.map((c) => c.name).join(' '))} -- "$cur"))
    return
  fi
  case "$command" in
${cases.join('\n')}
  esac
}
complete -F _rampart rampart
`;
}

function zsh(commands: readonly CompletedCommand[]): string {
  const describe = (text: string) => text.replace(/[[\]:]/g, ' ').replace(/'/g, `'\\''`);
  const list = commands.map((c) => `    '${c.name}:${describe(c.description)}'`).join('\n');
  const cases = commands.map((c) => {
    const specs = c.options.map((o) => `'${o.flag}[${describe(o.description)}]${o.choices ? `:value:(${o.choices.join(' ')})` : ''}'`);
    return `    ${c.name}) _arguments ${specs.join(' ')} '*:file:_files' ;;`;
  });
  return `#compdef rampart
# zsh completion for rampart: rampart completion zsh > "\${fpath[1]}/_rampart"
_rampart() {
  local -a commands
  commands=(
${list}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local command=\${words[2]}
  shift words
  (( CURRENT-- ))
  case $command in
${cases.join('\n')}
  esac
}
_rampart "$@"
`;
}

function fish(commands: readonly CompletedCommand[]): string {
  const lines = ['# fish completion for rampart: rampart completion fish > ~/.config/fish/completions/rampart.fish', 'complete -c rampart -f'];
  for (const c of commands) lines.push(`complete -c rampart -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description)}`);
  for (const c of commands) {
    for (const o of c.options) {
      const choices = o.choices ? ` -x -a ${quote(o.choices.join(' '))}` : '';
      lines.push(`complete -c rampart -n '__fish_seen_subcommand_from ${c.name}' -l ${o.flag.replace(/^--/, '')} -d ${quote(o.description)}${choices}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
