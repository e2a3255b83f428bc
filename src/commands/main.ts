/**
 * argv → command → exit code. Each command lives in src/commands/ and
 * registers itself through `index.ts`; an error any of them throws
 * becomes one `rampart: … [code]` line on stderr. cli.ts runs this as the
 * process; tests can run it in theirs.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from './commander.js';
import { registerCommands } from './index.js';
import { isRampartError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { redactSecrets, registerSecretSources } from '../secrets.js';
import { packageVersion } from '../version.js';

/** The program's version flags: alone, they need no command module loaded. */
const VERSION_FLAGS = ['-V', '--version'];

/** Runs `argv` (as `process.argv`: node, script, arguments) and resolves to the exit code; never rejects. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    registerSecretSources(argv, process.env, (file) => readFileSync(file, 'utf8'));
    const program = new Command('rampart')
      .description('Keep an Attack Protection Service account in step with YAML policy files.')
      .version(await packageVersion(), VERSION_FLAGS.join(', '))
      // One line after an error (a suggestion included), not the whole help.
      .showHelpAfterError('(rampart --help lists the commands; rampart <command> --help their options)')
      .exitOverride();
    // `rampart --version` loaded every command to print one line (0.4 s more than Node's start).
    const versionOnly = argv.length === 3 && VERSION_FLAGS.includes(argv[2] as string);
    if (!versionOnly) await registerCommands(program, argv);
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.error;
    }
    process.stderr.write(`rampart: ${describe(error)}\n`);
    return EXIT.error;
  }
}

function describe(error: unknown): string {
  return redactSecrets(describeRaw(error));
}

function describeRaw(error: unknown): string {
  if (isRampartError(error) && error.code !== 'internal') return `${error.message} [${error.code}]`;
  if (error instanceof Error) {
    // An unexpected error is a bug: keep the stack for the report.
    return process.env.RAMPART_DEBUG ? (error.stack ?? error.message) : `internal error: ${error.message}`;
  }
  return String(error);
}
