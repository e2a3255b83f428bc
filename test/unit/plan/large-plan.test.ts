import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { benchInputs } from '../../../bench/diff.js';
import type { LiveIpEntry } from '../../../src/model/ip.js';
import type { LiveRule } from '../../../src/model/rule.js';
import { type PlanOptions } from '../../../src/plan/plan.js';
import { renderJson } from '../../../src/plan/render/json.js';
import { planDocument } from '../../helpers/plan-document.js';

/**
 * The plan of a large generated account is byte for byte what it was before
 * the diff and plan were made faster (issue 12): the hashes below were taken
 * from the code before that work. A change that alters any plan at scale, its
 * order, checksum or digests, fails here; update the hashes only for an
 * intended change of the plan's content.
 */
function inputs() {
  const { desired, live } = benchInputs(5_000);
  // Some live objects unmanaged or another owner's, so adoption and the notes run too.
  const mark = <T extends LiveRule | LiveIpEntry>(o: T, i: number): T =>
    i % 7 === 3 ? { ...o, owner: undefined } : i % 11 === 5 ? { ...o, owner: 'someone-else' } : o;
  return { desired, live: { ...live, rules: live.rules.map(mark), ipEntries: live.ipEntries.map(mark) } };
}

const cases: [string, PlanOptions, number, string][] = [
  ['default', {}, 1682894, '661e74efba7f583782d48338283eb80bf8887de95c109a0b527282c6c60a815c'],
  ['--adopt', { adopt: true }, 1865142, '0fd61f9673180970c6d2c02cd3acf79eb17d0dbafa3bb54d438cb9837e6bb0a4'],
  ['--rule-updates replace', { ruleUpdates: 'replace' }, 1682923, 'ba6b87ed86fdd30a93f1fc232919a25e39f093e6de03b3fbf4fb9ff9275a7130'],
];

describe('a plan of 5,000 generated objects', () => {
  it.each(cases)('is unchanged byte for byte (%s)', (_name, options, length, hash) => {
    const { desired, live } = inputs();
    const json = renderJson(planDocument(desired, live, options));
    expect(json.length).toBe(length);
    expect(createHash('sha256').update(json).digest('hex')).toBe(hash);
  });
});
