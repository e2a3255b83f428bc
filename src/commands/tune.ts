/**
 * `rampart tune --request-id ID…`: false positives the service recorded
 * become proposed `disable_stamp` / `disable_attack_type` rules, scoped as the
 * service scopes them, placed in the file that declares their client and
 * application. Prints them; `--write` adds them to the files (comments and
 * layout kept), after validating the result. Never writes to the account.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { EXIT } from '../exit-codes.js';
import { writeFilesAtomically } from '../atomic-files.js';
import { FileError, PolicyInvalidError, UsageError } from '../errors.js';
import { readLiveState } from '../live/read.js';
import { createLogger, personAtTerminal } from '../log.js';
import { findPolicyFiles } from '../policy/files.js';
import { formatDiagnostics } from '../policy/format.js';
import { loadPolicyTexts } from '../policy/validate.js';
import type { PolicyDocument } from '../tune/place.js';
import { renderTuneJson, renderTuneText } from '../tune/render.js';
import { tune } from '../tune/tune.js';
import type { RuleToAdd } from '../tune/write.js';
import { addRules, newPolicyFile } from '../tune/write.js';
import { connect, runConnected } from './connect.js';
import { accountId, addConnectionOptions, addLogOptions, addPolicyOptions, parseDuration, type ConnectionOptions, type LogFlags, type PolicyOptions } from './options.js';

interface TuneFlags extends ConnectionOptions, LogFlags, PolicyOptions {
  requestId: string[];
  client?: number;
  attack?: boolean;
  since: string;
  only?: 'stamp' | 'attack';
  write?: boolean;
  format: 'text' | 'json';
  acceptServiceScope?: boolean;
  attackTypes?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('tune')
    .description('propose false-positive rules (disable_stamp, disable_attack_type) from the hits of requests; --write adds them to the policies')
    .requiredOption('--request-id <id>', 'a request the service detected as an attack by mistake (repeatable)', (value: string, all: string[] = []) => [...all, value])
    .option('--client <id>', 'the account the request belongs to (default: every account the policies declare)', accountId)
    .option('--attack', 'also take the other hits of those requests\' attacks, on the same host, path and application')
    .option('--since <duration>', 'how far back hits are read (30d, 12h)', '30d')
    .addOption(new Option('--only <kind>', 'propose only one rule type').choices(['stamp', 'attack']))
    .option('--attack-types', 'also propose a disable_attack_type per attack type and point (by default only where a hit carries no stamp: they turn off a whole attack type there)')
    .option('--write', 'add the proposed rules to the policy files (validated first; comments and layout kept)')
    .option('--accept-service-scope', 'use the service\'s scope for a hit even when it is empty, or names another host, client or application (refused otherwise)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'));
  addPolicyOptions(command);
  addConnectionOptions(command);
  addLogOptions(command);
  command.action(async (flags: TuneFlags) => {
    process.exitCode = await runTune(flags);
  });
}

export async function runTune(flags: TuneFlags): Promise<number> {
  const logger = createLogger({ format: flags.logFormat, level: flags.logLevel, oneShot: true });
  const documents = await readDocuments(flags.policies);
  const loaded = loadPolicyTexts(documents);
  if (!loaded.desired) throw new PolicyInvalidError(`the policies are invalid; fix them before tuning:\n${formatDiagnostics({ files: documents.map((d) => d.file), diagnostics: loaded.diagnostics }, 'text')}`);
  const clients = flags.client !== undefined ? [flags.client] : loaded.desired.clients;
  if (clients.length === 0) throw new UsageError('no account to read hits from: the policies declare none; pass --client');
  const now = Math.floor(Date.now() / 1000);
  const declared = loaded.desired.rules;
  const connection = await connect(flags, logger, { failFast: true, holdRetries: personAtTerminal(flags.logFormat) });
  return runConnected(connection, async () => {
    const result = await tune(
      { requestIds: flags.requestId, clients, attack: Boolean(flags.attack), since: now - parseDuration(flags.since, '--since') / 1000, ...(flags.only ? { only: flags.only } : {}), owner: flags.owner, now, acceptServiceScope: Boolean(flags.acceptServiceScope), attackTypes: Boolean(flags.attackTypes) },
      {
        api: connection.api, documents, declared, newFilePath: (name) => join(flags.policies, name),
        liveRules: async (client) => (await readLiveState(connection.api, [client], { concurrency: flags.concurrency })).rules,
      },
    );
    const toAdd = rulesByFile(result.rules, flags.requestId, new Date(now * 1000));
    const written = flags.write ? await writeRules(documents, toAdd, result.rules) : undefined;
    const output = { result, requestIds: flags.requestId, toAdd, ...(written ? { written } : {}) };
    process.stdout.write(flags.format === 'json' ? renderTuneJson(output) : renderTuneText(output));
    return EXIT.ok;
  });
}

/**
 * Every policy file with the client and applications it declares, for
 * placing rules: each read through the policy loader (a file that does not
 * validate declares nothing here, and the loader's check of all of them
 * refuses it with its diagnostics).
 */
async function readDocuments(policies: string): Promise<PolicyDocument[]> {
  const found = await findPolicyFiles(policies);
  if (!found.exists) throw new UsageError(`policy directory ${policies} does not exist`);
  return Promise.all(found.files.map(async (found) => {
    const file = join(policies, found.relative);
    const text = await readFile(found.path, 'utf8');
    const desired = loadPolicyTexts([{ file, text }]).desired;
    const [client] = desired?.clients ?? [];
    // `application: all` names no application by id.
    const ids = [...new Set((desired?.applicationSources ?? []).map((source) => source.application))];
    return {
      file,
      text,
      ...(client !== undefined ? { client, applications: ids.length > 0 ? ids : ('all' as const) } : {}),
      names: new Set((desired?.rules ?? []).map((rule) => rule.source.name)),
    };
  }));
}

function rulesByFile(rules: Awaited<ReturnType<typeof tune>>['rules'], requestIds: readonly string[], today: Date): Map<string, RuleToAdd[]> {
  const byFile = new Map<string, RuleToAdd[]>();
  const day = today.toISOString().slice(0, 10);
  for (const rule of rules) {
    if (rule.placement.status !== 'new') continue;
    const requests = [...new Set(rule.proposal.group.hits.map((hit) => hit.requestId))].filter((id) => requestIds.includes(id));
    const comment = `tune: request${requests.length === 1 ? '' : 's'} ${(requests.length > 0 ? requests : requestIds).join(', ')} (${day})`;
    byFile.set(rule.file, [...(byFile.get(rule.file) ?? []), { name: rule.name, written: rule.written, comment }]);
  }
  return byFile;
}

/**
 * The new texts, validated together with every other file, then written all
 * or nothing (atomic-files.ts): a file changed since it was read is refused,
 * never overwritten. A file keeps its line endings.
 */
async function writeRules(documents: readonly PolicyDocument[], toAdd: ReadonlyMap<string, readonly RuleToAdd[]>, rules: Awaited<ReturnType<typeof tune>>['rules']): Promise<string[]> {
  const read = new Map(documents.map((d) => [d.file, d.text]));
  const texts = new Map(read);
  for (const [file, adding] of toAdd) {
    const existing = read.get(file);
    const first = rules.find((r) => r.file === file);
    if (existing !== undefined && first?.newFile) {
      // The name tune gives a new file, taken by a file of another account or application.
      throw new FileError(`${file} exists but declares another client or application than the hits' (${first.proposal.group.client}, application ${first.proposal.group.application}): nothing was written; give that file another name, or declare the application in one file`);
    }
    const group = first?.proposal.group;
    const text = existing !== undefined ? addRules(existing, adding) : newPolicyFile(group?.client ?? 0, group?.application ?? 0, adding);
    texts.set(file, existing !== undefined && existing.includes('\r\n') ? text.replace(/\r?\n/g, '\r\n') : text);
  }
  const check = loadPolicyTexts([...texts].map(([file, text]) => ({ file, text })));
  if (!check.desired) throw new PolicyInvalidError(`the tuned policies would not validate; nothing was written:\n${formatDiagnostics({ files: [...texts.keys()], diagnostics: check.diagnostics }, 'text')}`);
  const writes = [...toAdd.keys()].map((file) => {
    const before = read.get(file);
    return { path: file, text: texts.get(file) ?? '', ...(before !== undefined ? { read: before } : {}) };
  });
  await writeFilesAtomically(writes);
  return writes.map((write) => write.path);
}
