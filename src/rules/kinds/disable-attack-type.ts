import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { PATCH_ATTACK_TYPES } from '../../grammar/vocabulary.js';

const fields = {
  attack: oneOf(PATCH_ATTACK_TYPES, { api: 'attack_type', required: true, example: 'sqli', description: 'The attack type to stop detecting at the point (`any`: all of them).' }),
};

export const disableAttackType = defineRuleKind({
  yaml: 'disable_attack_type',
  api: 'disable_attack_type',
  description: 'False-positive tuning: attacks of type `attack` found at `point` are ignored.',
  point: 'required',
  fields,
  // The service could change `attack` in place, but one point holds one rule per attack type (tuning stops each apart): it is what the rule is.
  updatable: [],
  // Still sent with every update, as the service's provider does (`WithAttackType`): left out, it would be reset.
  carriedByUpdates: ['attack'],
  evidence: { decides: 'ignoring-attack-type', field: 'attack' },
  describe: (f) => `ignores ${f.attack ?? '?'}`,
  examples: [
    { attack: 'sqli', point: [['get', 'q']], when: [{ point: ['path', 0], equal: 'search' }] },
  ],
});
