/**
 * `rampart validate`: checks every policy file offline (no API call) and
 * prints every problem at once. Exit 1 when any is an error.
 */
import { appendFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { EXIT } from '../exit-codes.js';
import { repositoryPath } from '../github-commands.js';
import { formatDiagnostics, formatMarkdown, type DiagnosticFormat, type DiagnosticReport } from '../policy/format.js';
import { loadPolicies } from '../policy/index.js';
import type { Diagnostic } from '../diagnostic.js';

interface ValidateOptions {
  policies: string;
  format: DiagnosticFormat;
}

export function register(program: Command): void {
  program
    .command('validate')
    .description('check every policy file offline; no API call')
    .addOption(new Option('--policies <dir>', 'policy directory').env('RAMPART_POLICIES').default('./policies'))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .action(async (options: ValidateOptions) => {
      process.exitCode = await validate(options);
    });
}

export async function validate(options: ValidateOptions): Promise<number> {
  // An empty RAMPART_POLICIES means "unset", not the working directory.
  const policies = options.policies === '' ? './policies' : options.policies;
  const result = await loadPolicies(policies);
  const diagnostics: Diagnostic[] = [...result.diagnostics];
  if (!result.exists) {
    diagnostics.unshift({
      file: policies, line: 0, col: 0, severity: 'error', code: 'no-policy-directory',
      message: `policy directory not found (resolved to ${result.root})`,
    });
  }
  const report: DiagnosticReport = { files: result.files, diagnostics };
  process.stdout.write(formatDiagnostics(report, options.format, { path: repositoryPath(process.env.GITHUB_WORKSPACE, process.cwd()) }));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (options.format === 'github' && summaryFile) {
    await appendFile(summaryFile, formatMarkdown(report));
  }
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.error : EXIT.ok;
}
