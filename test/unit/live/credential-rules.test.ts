/**
 * Credential-stuffing rules are read from their own endpoint, which a normal
 * token's hint listing leaves out; a token that sees them in both never
 * counts one twice, and an answer of the wrong shape fails the read.
 */
import { describe, expect, it } from 'vitest';
import type { ApiHint } from '../../../src/api/records.js';
import { ApiProtocolError } from '../../../src/errors.js';
import { readLiveState } from '../../../src/live/read.js';
import { fakeApi } from '../../helpers/fake-api.js';

const CLIENT = 10042;
const action = [{ point: ['instance'], type: 'equal', value: '7' }];

const vpatch: ApiHint = { id: 1, clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'], action, comment: '[managed-by:rampart]' };
const byRegex: ApiHint = {
  id: 2, clientid: CLIENT, type: 'credentials_regex', regex: '^pass$', login_regex: '^login$', case_sensitive: false, cred_stuff_type: 'custom',
  action, comment: '[managed-by:rampart]',
};
const byPoint: ApiHint = {
  id: 3, clientid: CLIENT, type: 'credentials_point', point: ['post', 'json_doc', 'hash', 'password'],
  login_point: ['post', 'json_doc', 'hash', 'email'], cred_stuff_type: 'default', action,
};

describe('credential-stuffing rules in the live read', () => {
  it('come from the configuration endpoint, both lists, read as their kinds', async () => {
    const live = await readLiveState(fakeApi([vpatch], {}, { default: [byPoint], custom: [byRegex] }), [CLIENT]);
    expect(live.rules.map((rule) => [rule.id, rule.kind])).toEqual([[1, 'vpatch'], [2, 'credential_stuffing_regex'], [3, 'credential_stuffing_point']]);
    expect(live.rules.find((rule) => rule.id === 3)?.fields).toEqual({
      login_point: [['post'], ['json_doc'], ['hash', 'email']], cred_stuff_type: 'default',
    });
  });

  it('listed by the hint listing too (a token with more rights) are counted once', async () => {
    const live = await readLiveState(fakeApi([vpatch, byRegex, byPoint], {}, { default: [byPoint], custom: [byRegex] }), [CLIENT]);
    expect(live.rules.map((rule) => rule.id)).toEqual([1, 2, 3]);
  });

  it.each([
    ['a list', []],
    ['a list of the wrong shape', { default: 'x', custom: [] }],
    ['a record without an id', { default: [{ ...byPoint, id: 'x' }], custom: [] }],
    // A listing that lies must not read as "no custom rules": plan would propose them all again, apply duplicate them.
    ['without its custom list', { default: [byPoint] }],
    ['with a null custom list', { default: [byPoint], custom: null }],
    ['an empty object', {}],
  ])('an answer that is %s fails the read as a protocol error', async (_what, answer) => {
    await expect(readLiveState(fakeApi([vpatch], {}, answer), [CLIENT])).rejects.toBeInstanceOf(ApiProtocolError);
  });
});
