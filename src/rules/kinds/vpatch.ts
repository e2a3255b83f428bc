import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { PATCH_ATTACK_TYPES } from '../../grammar/vocabulary.js';

const fields = {
  attack: oneOf(PATCH_ATTACK_TYPES, {
    // The service refuses a virtual patch without it ("attack_type: can't be blank").
    api: 'attack_type', required: true, example: 'any',
    description: 'The attack to block at the point; `any` blocks every request the conditions select.',
  }),
};

export const vpatch = defineRuleKind({
  yaml: 'vpatch',
  api: 'vpatch',
  description: 'A virtual patch: blocks requests whose `point` carries the attack (`any`: every matching request), whatever the filtering mode.',
  point: 'required',
  fields,
  updatable: ['attack'],
  evidence: { decides: 'blocking-at-point', field: 'attack' },
  describe: (f) => `blocks ${f.attack ?? '?'}`,
  examples: [
    { attack: 'any', point: [['header', 'HOST']], when: [{ point: ['path', 0], equal: 'admin' }] },
    { attack: 'sqli', point: [['get', 'q']] },
  ],
});
