/**
 * `--impact` checks its model against what the service recorded: over the
 * requests recorded since the configuration last changed, the share whose
 * modelled verdict for the live configuration (blocked or not) is the one the
 * service recorded, with samples of those that disagree. Below 95% the impact
 * is unreliable, and `--impact-limit` treats it as incomplete.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { withOwnerMark } from '../../../src/model/ownership.js';
import { ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { rampartAgainst } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const CLIENT = 10042;
const policy = (mode: string) => stringify({ version: 1, client: CLIENT, application: 7, mode });

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator({ demoTraffic: false });
  policies = await policyDir({ 'shop.yaml': policy('monitoring') });
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

const rampart = rampartAgainst(() => emulator, () => policies);
const now = () => Math.floor(Date.now() / 1000);

/**
 * The shop's `monitoring` rule, Rampart's, last changed two hours ago; then
 * ten attacks an hour ago, `blocked` of them recorded as blocked (which
 * monitoring never does: the model disagrees with those).
 */
function seedAccount(blocked: number): void {
  const [rule] = loadPolicyTexts([{ file: 'policies/shop.yaml', text: policy('monitoring') }]).desired?.rules ?? [];
  if (!rule) throw new Error('no mode rule');
  emulator.control.seedHint({
    clientid: CLIENT, type: 'service_mode', mode: 'monitoring', action: [{ point: ['instance'], type: 'equal', value: '7' }],
    comment: withOwnerMark(undefined, { owner: 'rampart', fingerprint: ruleFingerprint(rule), name: 'mode' }), updated_at: now() - 7200,
  });
  emulator.control.seedHits(Array.from({ length: 10 }, (_, i) => ({
    clientid: CLIENT, poolid: 7, domain: 'shop.example.com', path: '/api/search', point: ['get', 'q'], type: 'sqli',
    request_id: `q${i}`, ip: `192.0.2.${i + 1}`, time: now() - 3600, ...(i < blocked ? { block_status: 'blocked' } : {}),
  })));
}

async function planJson(args: string[] = []): Promise<PlanDocument> {
  const run = await rampart('plan', ['--impact', '--format', 'json', ...args]);
  return JSON.parse(run.stdout) as PlanDocument;
}

describe('the impact\'s agreement with what the service recorded', () => {
  it('is reported in text and JSON, with samples of the requests that disagree; below 95% it is unreliable and fails a limit', async () => {
    seedAccount(3);
    await policies.write('shop.yaml', policy('block'));
    const text = await rampart('plan', ['--impact']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('The model agrees with 70.0% of 10 verdicts the service recorded since the configuration last changed (3 disagree: see --format json): too few to rely on its counts.');
    const plan = await planJson();
    expect(plan.impact).toMatchObject({ agreement: { checked: 10, agree: 7, samples: ['q0', 'q1', 'q2'] }, reliable: false });
    const markdown = await rampart('plan', ['--impact', '--format', 'markdown']);
    expect(markdown.stdout).toContain('The model agrees with 70.0% of 10 verdicts the service recorded');
    const limited = await rampart('plan', ['--impact-limit', '100', '--detailed-exitcode']);
    expect(limited.code).toBe(1);
    expect(limited.stdout).toContain('Unsafe: an unreliable impact cannot show a plan within the limit of 100 requests');
    const refused = await rampart('apply', ['--impact-limit', '100', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the impact is unreliable: its model agrees with only 7 of the 10 verdicts the service recorded.*\[unsafe_plan\]/);
  });

  it('is reliable when the model agrees, and then a limit judges the counts', async () => {
    seedAccount(0);
    await policies.write('shop.yaml', policy('block'));
    const plan = await planJson();
    expect(plan.impact).toMatchObject({ agreement: { checked: 10, agree: 10, samples: [] }, reliable: true });
    expect((await rampart('plan', ['--impact-limit', '100', '--detailed-exitcode'])).code).toBe(2);
  });

  it('checks nothing recorded before the configuration last changed: such a request saw another one', async () => {
    seedAccount(3);
    // The rule changed after the hits: none of them tests the live configuration.
    const [hint] = emulator.control.state().hints;
    if (hint) emulator.control.seedHint({ ...hint.record, id: 999, updated_at: now() - 60, action: [{ point: ['instance'], type: 'equal', value: '8' }] });
    await policies.write('shop.yaml', policy('block'));
    const plan = await planJson();
    expect(plan.impact?.agreement?.checked).toBe(0);
    expect(plan.impact?.reliable).toBe(true);
  });
});
