/**
 * `rampart export --client ID`: writes the live rules and IP lists of an
 * account as policy files (`--out DIR`) so that `plan` on them right after
 * shows no changes. Reads only; never writes to the account. See
 * docs/onboarding.md and src/export/.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { withDeadline } from '../api/deadline.js';
import { EXIT } from '../exit-codes.js';
import { buildExport, renderReport, writeExport, type ReportFormat } from '../export/index.js';
import { readLiveState } from '../live/read.js';
import { createLogger, personAtTerminal } from '../log.js';
import { connect, runConnected } from './connect.js';
import { accountId, addConnectionOptions, addDeadlineOption, addLogOptions, type ConnectionOptions, type DeadlineFlags, type LogFlags, parseDuration } from './options.js';
import { UsageError } from '../errors.js';
import { POLICY_SCHEMA_URL } from '../policy/schema-document.js';

interface ExportFlags extends ConnectionOptions, LogFlags, DeadlineFlags {
  client: number;
  out: string;
  excludeOwned?: boolean;
  includeOwned?: boolean;
  force?: boolean;
  schemaRef?: string;
  format: ReportFormat;
}

export function register(program: Command): void {
  const command = program
    .command('export')
    .description('write the live rules and IP lists of an account as policy files; changes nothing in the account')
    .requiredOption('--client <id>', 'account id (clientid) to export', accountId)
    .addOption(new Option('--out <dir>', 'directory to write the policy files into').default('./exported'))
    .option('--exclude-owned', 'leave out objects carrying the --owner mark (for an export written next to the policies that declare them)')
    .addOption(new Option('--include-owned', 'deprecated: objects carrying the --owner mark are exported by default').hideHelp())
    .option('--force', 'overwrite files in --out that an earlier export did not write')
    .option('--schema-ref <ref>', 'what the yaml-language-server modeline points at (default: the published schema URL; e.g. ../schemas/policy.schema.json in a repository that keeps a copy)')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'json']).default('text'));
  addConnectionOptions(command);
  addDeadlineOption(command, 'reading the account');
  addLogOptions(command);
  command.action(async (flags: ExportFlags) => {
    process.exitCode = await exportAccount(flags);
  });
}

export async function exportAccount(flags: ExportFlags): Promise<number> {
  const logger = createLogger({ format: flags.logFormat, level: flags.logLevel, oneShot: true });
  if (flags.includeOwned && flags.excludeOwned) throw new UsageError('--include-owned and --exclude-owned contradict each other');
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const connection = await connect(flags, logger, { failFast: true, holdRetries: personAtTerminal(flags.logFormat) });
  return runConnected(connection, async () => {
    const live = await withDeadline(timeoutMs, connection.target, (signal) =>
      readLiveState(connection.api, [flags.client], { concurrency: flags.concurrency, signal }));
    if (flags.includeOwned) logger.warn('--include-owned is deprecated and does nothing: export includes the objects this owner manages by default (--exclude-owned leaves them out)');
    logger.info({ rules: live.rules.length, ipValues: live.ipEntries.length, target: connection.target }, 'live state read');
    const result = buildExport(live, {
      client: flags.client,
      owner: flags.owner,
      excludeOwned: Boolean(flags.excludeOwned),
      now: Math.floor(Date.now() / 1000),
      // The published schema: a path into this machine's install would not resolve on a colleague's, or in CI.
      schemaRef: flags.schemaRef ?? POLICY_SCHEMA_URL,
    });
    const write = await writeExport(flags.out, result.files, { force: Boolean(flags.force), record: result.record });
    process.stdout.write(renderReport({ client: flags.client, out: flags.out, owner: flags.owner, result, write }, flags.format));
    logger.info({ files: write.written.length, removed: write.removed.length, skipped: result.skipped.length }, 'export written');
    return EXIT.ok;
  });
}


