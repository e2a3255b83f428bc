/**
 * `plan --impact` against traffic chosen to hurt it, as users run it (the
 * CLI's main, in process, against the emulator): regexes with nested
 * quantifiers meet values built to make a backtracking engine run for hours;
 * recorded paths built to take over a terminal or a pull-request comment show
 * as inert, bounded text in the text plan, the saved plan's markdown and the
 * comment `ci comment` posts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HitSeed } from '../../../src/emulator/hits/records.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import { commentText } from '../../../src/ci/comment.js';
import { rampartAgainst, runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const CLIENT = 10042;
const HEAD = `version: 1\nclient: ${CLIENT}\napplication: 7\nmode: monitoring\n`;

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator({ demoTraffic: false });
  policies = await policyDir({ 'shop.yaml': HEAD });
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

const rampart = rampartAgainst(() => emulator, () => policies);
const now = () => Math.floor(Date.now() / 1000);

function seed(hits: readonly Omit<HitSeed, 'clientid' | 'type' | 'point'>[]): void {
  emulator.control.seedHits(hits.map((hit) => ({
    clientid: CLIENT, type: 'sqli', point: ['get', 'q'], poolid: 7, domain: 'shop.example.com', path: '/api/search', ip: '192.0.2.1', time: now() - 3600, ...hit,
  })));
}

/** 40 letters and one that breaks the match. */
const HOSTILE = `${'a'.repeat(40)}!`;

describe('regexes against hostile recorded values', () => {
  it('nested quantifiers in a rule and in a Host scope finish well within --timeout, with the counts they imply', async () => {
    seed([
      { request_id: 'hostile-value', value: HOSTILE },
      { request_id: 'hostile-host', domain: HOSTILE, value: 'x' },
      { request_id: 'plain', value: 'a'.repeat(41) },
    ]);
    await policies.write('shop.yaml', `${HEAD}rules:
  - { name: nested, type: regex, regex: "^(a+)+$", attack: scanner, point: [[get, q]] }
  - { name: hosts, type: vpatch, attack: any, point: [[get, q]], when: [{ point: [header, HOST], regex: "^([a-z]+\\\\.?)+$" }] }
  - { name: ahead, type: regex, regex: "^(?=a)(a+)+$", attack: scanner, point: [[get, name]] }
`);
    const started = Date.now();
    const run = await rampart('plan', ['--impact', '--timeout', '20s', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    const plan = JSON.parse(run.stdout) as PlanDocument;
    const byName = new Map(plan.changes.map((change) => ['name' in change ? change.name : '', change.impact]));
    expect(byName.get('nested')).toMatchObject({ effect: 'newly_detected', requests: 1, sample_request_ids: ['plain'] });
    expect(byName.get('hosts')).toMatchObject({ effect: 'newly_blocked', requests: 2 });
    expect(byName.get('ahead')).toMatchObject({ effect: 'not_evaluable', evaluable: false });
    expect(byName.get('ahead')?.reason).toMatch(/no lookaround or backreferences/);
  });
});

describe('hostile recorded paths', () => {
  const CONTROLS = '/x\x1b]0;pwned\x07\x1b[2J\x1b[H\r\nPlan: 0 to create, 0 to update, 0 to delete, 0 unchanged (0 API calls).\n';
  const FENCE = '/y\n```\n# Approved by security\n[click to approve](https://evil.example/approve)\n```diff\n';
  const HUGE = `/${'z'.repeat(300 * 1024)}`;

  it('show in the text plan and the comment as inert, bounded text; the comment keeps its checksum line', async () => {
    seed([{ request_id: 'controls', path: CONTROLS }, { request_id: 'fence', path: FENCE }, { request_id: 'huge', path: HUGE }]);
    await policies.write('shop.yaml', HEAD.replace('mode: monitoring', 'mode: block'));
    const text = await rampart('plan', ['--impact']);
    expect(text.code, text.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- the raw controls are what must not be there
    expect(text.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(text.stdout).toMatch(/would newly block 3 requests .*\/x\\x1b\]0;pwned\\x07/);
    expect(text.stdout.split('\n').filter((line) => line.startsWith('Plan:'))).toHaveLength(1);
    expect(text.stdout.length).toBeLessThan(3_000);

    const file = policies.scratch('plan.json');
    expect((await rampart('plan', ['--impact', '--out', file])).code).toBe(0);
    const shown = await runCliInProcess(['show', file, '--format', 'markdown']);
    const comment = await commentText({ plan: file }, { GITHUB_SHA: 'a'.repeat(40) });
    for (const markdown of [shown.stdout, comment]) {
      expect(markdown.length).toBeLessThan(5_000);
      const fences = markdown.split('\n').filter((line) => /^`{3,}/.test(line));
      // Only the comment's own fences: the recorded one is inert text inside its block.
      expect(fences).toEqual(['```diff', '```']);
      expect(markdown).not.toMatch(/^# Approved/m);
      expect(markdown).toMatch(/<sub>checksum `[0-9a-f]{12}`/);
    }
  });
});
