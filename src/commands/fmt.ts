/**
 * `rampart fmt`: rewrites the policy files in their canonical form
 * (fmt/canonical.ts): comments and the order of rules kept. `--check` changes
 * nothing, lists the files that would change and exits 1 if any would (CI).
 * A file that does not parse is reported at file:line:col and left alone.
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Command } from 'commander';
import { writeFilesAtomically } from '../atomic-files.js';
import { EXIT } from '../exit-codes.js';
import { formatPolicyText } from '../fmt/canonical.js';
import { unifiedDiff } from '../fmt/diff.js';
import { findPolicyFiles } from '../policy/files.js';
import { addPolicyOptions, type PolicyOptions } from './options.js';

interface FmtFlags extends PolicyOptions {
  check?: boolean;
  diff?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('fmt')
    .description('rewrite the policy files in their canonical form (sorted IP lists, canonical addresses, quoted ambiguous strings); comments are kept')
    .option('--check', 'change nothing; list the files that would change and exit 1 if any would')
    .option('--diff', 'print each change as a unified diff instead of the file names; the files are still rewritten, as terraform fmt -diff does (for a preview that writes nothing: --check --diff)');
  addPolicyOptions(command);
  command.action(async (flags: FmtFlags) => {
    process.exitCode = await fmt(flags);
  });
}

export async function fmt(flags: FmtFlags): Promise<number> {
  const found = await findPolicyFiles(flags.policies);
  if (!found.exists) {
    process.stderr.write(`${flags.policies}: policy directory not found\n`);
    return EXIT.error;
  }
  const shown = (file: string) => relative(process.cwd(), file) || file;
  let failed = found.problems.length > 0;
  for (const problem of found.problems) process.stderr.write(`${shown(problem.path)}: cannot read: ${problem.message}\n`);
  const changed: string[] = [];
  for (const file of found.files) {
    const text = await readFile(file.path, 'utf8');
    const result = formatPolicyText(text);
    if (!result.ok) {
      process.stderr.write(`${shown(file.path)}:${result.line}:${result.col}: ${result.message} (left as it is)\n`);
      failed = true;
      continue;
    }
    if (!result.changed) continue;
    changed.push(shown(file.path));
    if (flags.diff) process.stdout.write(unifiedDiff(shown(file.path), text, result.text));
    // Through a temporary file (an editor or a watcher never sees half a file), through a link (it stays one),
    // and never over an edit made since it was read.
    if (!flags.check) await writeFilesAtomically([{ path: file.path, text: result.text, read: text }]);
  }
  if (!flags.diff) for (const file of changed) process.stdout.write(`${file}\n`);
  if (flags.check && changed.length > 0) {
    process.stderr.write(`${changed.length} file(s) not in canonical form; run \`rampart fmt\` to rewrite them\n`);
    return EXIT.error;
  }
  return failed ? EXIT.error : EXIT.ok;
}
