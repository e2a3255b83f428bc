/**
 * docs/onboarding.md: its commands, as
 * written, against an account made in the console. Every command exits 0,
 * the account ends up Rampart's without a create or a delete, and then a
 * removal from the files is a delete.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Plan } from '../../../src/plan/model.js';
import { CLIENT, consoleAccount, parseJson, seedConsoleObjects, type ConsoleAccount } from './console-account.js';

const DOC = join(import.meta.dirname, '../../../docs/onboarding.md');

/** The `rampart ...` lines of the first `sh` block under the heading, comments dropped. */
async function documentedCommands(): Promise<string[][]> {
  const doc = await readFile(DOC, 'utf8');
  const section = doc.slice(doc.indexOf('# Onboarding an existing account'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('rampart '))
    .map((line) => line.split(/\s+/).slice(1));
}

let account: ConsoleAccount;
afterEach(async () => account?.close());

it('the onboarding walkthrough runs as documented: export → review → adopt → manage', async () => {
  const commands = await documentedCommands();
  expect(commands.map((c) => c[0])).toEqual(['export', 'validate', 'plan', 'plan', 'adopt', 'plan']);
  account = await consoleAccount();
  seedConsoleObjects(account.emulator);
  const before = account.hints().map((h) => h.id).sort();

  for (const args of commands) {
    const withClient = args.map((arg) => (arg === '10042' ? String(CLIENT) : arg));
    const run = await account.rampart(args[0] === 'adopt' ? [...withClient, '--settle-timeout', '5s'] : withClient);
    expect(run.code, `rampart ${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
  }
  // Adopted in place: the same rules, now carrying the mark; no rule created, nothing deleted.
  expect(account.hints().map((h) => h.id).sort()).toEqual(before);
  expect(account.hints().filter((h) => /\[managed-by:rampart fp:/.test(h.comment ?? ''))).toHaveLength(3);
  expect(account.emulator.control.count('POST /v1/objects/hint/create')).toBe(0);
  expect(account.emulator.control.count('POST /v1/objects/hint/delete') + account.emulator.control.count('DELETE /v4/ip_rules')).toBe(0);
  expect(account.ipObjects().every((o) => /\[managed-by:rampart fp:/.test(o.reason ?? ''))).toBe(true);

  // Manage: a removal from the files is now a delete.
  const wide = join(account.root, 'policies', 'account-wide.yaml');
  await writeFile(wide, (await readFile(wide, 'utf8')).replace(/\nip_lists:\n {2}allow:\n {4}- ips: \[192\.0\.2\.10\]\n {6}reason: office\n/, '\n'));
  const plan = parseJson<Plan>(await account.rampart(['plan', '--policies', 'policies', '--format', 'json']));
  expect(plan.changes).toEqual([expect.objectContaining({ action: 'delete', kind: 'ip', objects: [expect.objectContaining({ reason: 'not-declared' })] })]);
});
