/** Creates and updates both write the rule's name into the owner mark, so a later delete can say what it deletes. */
import { describe, expect, it } from 'vitest';
import { hintCreateRequest, hintUpdateRequest } from '../../../src/apply/classes/rule-requests.js';
import { readOwnerMark } from '../../../src/model/ownership.js';
import { ruleFields, withFields } from '../plan/builders.js';

describe('the name in the owner mark', () => {
  const rule = { ...withFields(ruleFields('regex'), { regex: '.*(curltool|wget).*' }), comment: 'scanners' };

  it('is written by a create and by an update, and reads back as written', () => {
    const name = 'curltool scanner [v2]';
    for (const comment of [hintCreateRequest(rule, 'rampart', name).comment, hintUpdateRequest(rule, { ...rule, id: 1 }, 'rampart', name).comment]) {
      const mark = readOwnerMark(comment);
      expect(mark).toMatchObject({ owner: 'rampart', name, text: 'scanners' });
      expect(mark.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});
