import { describe, expect, it } from 'vitest';
import { assignNames, contentHash, nameStem, slugify } from '../../../src/export/names.js';
import type { Condition, Rule } from '../../../src/model/rule.js';

const instance = (app: number): Condition => ({ point: ['instance'], type: 'equal', value: String(app) });
const admin: Condition = { point: ['path', 0], type: 'equal', value: 'admin' };

function vpatch(overrides: Partial<Omit<Rule, 'kind' | 'fields'>> & { attack?: string } = {}): Rule {
  const { attack = 'any', ...rest } = overrides;
  return { client: 1, kind: 'vpatch', conditions: [instance(7), admin], point: [['header', 'HOST']], fields: { attack }, ...rest } as Rule;
}

describe('slugify', () => {
  it('keeps letters and digits, folds accents, joins words with dashes', () => {
    expect(slugify('Blocks the OLD admin panel!')).toBe('blocks-the-old-admin-panel');
    expect(slugify('Ünïcode & "quotes"')).toBe('unicode-quotes');
    expect(slugify('---')).toBe('');
  });

  it('cuts long text at a word boundary', () => {
    const slug = slugify('this comment is much longer than any rule name should ever be in a policy file');
    expect(slug.length).toBeLessThanOrEqual(48);
    expect(slug).toBe('this-comment-is-much-longer-than-any-rule-name');
  });
});

describe('rule names', () => {
  it('derive from the comment, else from type, attack and first point', () => {
    expect(nameStem(vpatch({ comment: 'legacy admin' }))).toBe('legacy-admin');
    expect(nameStem(vpatch())).toBe('vpatch-any-header-host');
    expect(nameStem({ client: 1, kind: 'mode', conditions: [], point: [], fields: { mode: 'block' } })).toBe('mode-block');
    expect(nameStem(vpatch({ comment: '!!!' }))).toBe('vpatch-any-header-host');
  });

  it('are stable: the same content gives the same name whatever the client, application, id or comment', () => {
    const a = contentHash(vpatch());
    expect(contentHash(vpatch({ client: 99, conditions: [admin, instance(8)] }))).toBe(a);
    expect(contentHash(vpatch({ comment: 'other text' }))).toBe(a);
    expect(contentHash(vpatch({ attack: 'sqli' }))).not.toBe(a);
    expect(contentHash(vpatch({ conditions: [instance(7)] }))).not.toBe(a);
    expect(assignNames([vpatch()])).toEqual([`vpatch-any-header-host-${a.slice(0, 6)}`]);
  });

  it('do not depend on the order of the rules', () => {
    const rules = [vpatch(), vpatch({ attack: 'sqli' }), vpatch({ point: [['get', 'q']] }), vpatch({ comment: 'x' })];
    const forward = assignNames(rules);
    const backward = assignNames([...rules].reverse()).reverse();
    expect(backward).toEqual(forward);
    expect(new Set(forward).size).toBe(rules.length);
  });

  it('take a longer hash only where two names would meet', () => {
    // Same stem from the comment, different content: distinct short hashes already.
    const names = assignNames([vpatch({ comment: 'same' }), vpatch({ comment: 'same', attack: 'xss' })]);
    expect(names[0]).toMatch(/^same-[0-9a-f]{6}$/);
    expect(names[1]).toMatch(/^same-[0-9a-f]{6}$/);
    expect(names[0]).not.toBe(names[1]);
  });
});
