import { describe, expect, it } from 'vitest';
import { ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import { ruleKey, sortConditions, type Condition, type DesiredRule } from '../../../src/model/rule.js';

const conditions: Condition[] = [
  { point: ['path', 0], type: 'equal', value: 'x' },
  { point: ['header', 'HOST'], type: 'iequal', value: 'example.com' },
  { point: ['get', 'q'], type: 'absent', value: null },
];

const rule = (when: readonly Condition[]): DesiredRule => ({
  client: 7, kind: 'regex', fields: { regex: 'a"b\\c', attack: 'sqli', experimental: false }, conditions: when,
  point: [['header', 'USER-AGENT']], comment: 'why', source: { file: 'f.yaml', line: 1, col: 1, name: 'r' },
});

describe('sortConditions', () => {
  it('orders conditions by their key, into a new array, the input left as it was', () => {
    const input = [...conditions];
    const sorted = sortConditions(input);
    expect(sorted.map((c) => c.point[0])).toEqual(['get', 'header', 'path']);
    expect(input).toEqual(conditions);
    expect(sorted).not.toBe(input);
  });

  it('copies conditions already in order and a single condition rather than returning them', () => {
    const inOrder = sortConditions(conditions);
    const again = sortConditions(inOrder);
    expect(again).toEqual(inOrder);
    expect(again).not.toBe(inOrder);
    const one = [conditions[0] as Condition];
    expect(sortConditions(one)).toEqual(one);
    expect(sortConditions(one)).not.toBe(one);
    expect(sortConditions([])).toEqual([]);
  });
});

describe('ruleKey', () => {
  it('is the same whichever order a rule holds its conditions in', () => {
    const listed = rule(conditions);
    const sorted = rule(sortConditions(conditions));
    expect(ruleKey(listed)).toBe(ruleKey(sorted));
    expect(ruleKey(rule([...conditions].reverse()))).toBe(ruleKey(sorted));
  });

  /*
   * Fingerprints in the service's comments hash a text that holds the rule's
   * key: a change of its format would make every rule Rampart created look
   * foreign to recognition. Both values are those of the releases before.
   */
  it('keeps the text and fingerprint earlier releases wrote', () => {
    const sorted = rule(sortConditions(conditions));
    expect(ruleKey(sorted)).toBe(
      '[7,"regex",["[[\\"get\\",\\"q\\"],\\"absent\\",null]","[[\\"header\\",\\"HOST\\"],\\"iequal\\",\\"example.com\\"]",' +
        '"[[\\"path\\",0],\\"equal\\",\\"x\\"]"],["[\\"header\\",\\"USER-AGENT\\"]"],["sqli",false]]',
    );
    expect(ruleFingerprint(sorted)).toBe('2d6f9bec7129b42d');
    expect(ruleFingerprint(rule(conditions))).toBe('2d6f9bec7129b42d');
  });
});
