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
 * intended change of the plan's content. Plan format 2 (issue 23) changed
 * four lines of each: `format_version`, the checksum (32 digits, not 64) and
 * both digests; every other byte is as before.
 */
function inputs() {
  const { desired, live } = benchInputs(5_000);
  // Some live objects unmanaged or another owner's, so adoption and the notes run too.
  const mark = <T extends LiveRule | LiveIpEntry>(o: T, i: number): T =>
    i % 7 === 3 ? { ...o, owner: undefined } : i % 11 === 5 ? { ...o, owner: 'someone-else' } : o;
  return { desired, live: { ...live, rules: live.rules.map(mark), ipEntries: live.ipEntries.map(mark) } };
}

const cases: [string, PlanOptions, number, string][] = [
  ['default', {}, 1682862, '1cb0b93d2df2718ceae115791a7c33c46f39ad9578665b7818a6fd48de08e490'],
  ['--adopt', { adopt: true }, 1865110, '44b65810f398689a93e6e30c7d345a8758fea0ef880ec453ed5a3b3949c0092b'],
  ['--rule-updates replace', { ruleUpdates: 'replace' }, 1682891, '744cc54e0ef1f63871ac41639a24cdc77cebbad96ad4f0f4b62b0cdc6a7901e7'],
];

describe('a plan of 5,000 generated objects', () => {
  it.each(cases)('is unchanged byte for byte (%s)', (_name, options, length, hash) => {
    const { desired, live } = inputs();
    const json = renderJson(planDocument(desired, live, options));
    expect(json.length).toBe(length);
    expect(createHash('sha256').update(json).digest('hex')).toBe(hash);
  });
});
