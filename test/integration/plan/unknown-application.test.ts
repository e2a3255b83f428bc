/**
 * An application the account does not have: `plan` refuses it with the
 * file:line of `application:` and the applications the account lists
 * (`POST /v1/objects/pool`); a token that may not list them gets a warning
 * and the plan goes on.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { useTestEmulator } from '../../helpers/emulator.js';
import { usePolicyDirs } from '../../helpers/policies.js';

const policy = (application: string) => `version: 1
client: 10042
application: ${application}
rules:
  - name: search-sqli
    type: vpatch
    attack: sqli
    point: [[get, q]]
`;

const emulator = useTestEmulator();
const dirs = usePolicyDirs();

async function plan(url: string, application: string) {
  const policies = await dirs.make({ 'shop.yaml': policy(application) });
  return runCliInProcess(['plan', '--policies', 'policies', '--api-url', url], { cwd: policies.root });
}

describe('an application the account does not have', () => {
  it('is refused at plan, naming application: in its file and the applications the account has', async () => {
    const emu = await emulator.start({ sampleApplications: false });
    emu.control.seedApplication({ clientid: 10042, id: 7, name: 'shop' });
    const result = await plan(emu.url, '424242');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('policies/shop.yaml:3:14: application 424242 is not an application of client 10042; it has -1 (default), 7 (shop)');
    expect(result.stderr).toContain('[unknown_application]');
    expect(emu.control.calls().filter((call) => call.method !== 'GET' && call.route !== 'POST /v1/objects/hint' && call.route !== 'POST /v1/objects/pool')).toEqual([]);
  });

  it('plans as usual when the account has it, and `all` needs no listing', async () => {
    const emu = await emulator.start({ sampleApplications: false });
    emu.control.seedApplication({ clientid: 10042, id: 7, name: 'shop' });
    expect((await plan(emu.url, '7')).code).toBe(0);
    expect(emu.control.count('POST /v1/objects/pool')).toBe(1);
    emu.control.resetCalls();
    expect((await plan(emu.url, 'all')).code).toBe(0);
    expect(emu.control.count('POST /v1/objects/pool')).toBe(0);
  });

  it('is only warned about when the token may not list the applications', async () => {
    const emu = await emulator.start({ sampleApplications: false });
    emu.control.addFault({ route: 'POST /v1/objects/pool', kind: 'status', status: 403, count: 10 });
    const result = await plan(emu.url, '424242');
    expect(result.code, result.stderr).toBe(0);
    expect(result.logs).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringMatching(/the applications of client 10042 could not be listed, so the applications the policies name are not checked/) as string }));
  });
});
