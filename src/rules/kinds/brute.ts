import { defineRuleKind } from '../kind.js';
import { enumeratingControlParts } from './abuse-control.js';

export const brute = defineRuleKind({
  yaml: 'brute',
  api: 'brute',
  description: 'Brute-force protection: sources that send more than `threshold` requests (with the `enumerated_parameters` watched, such as a password) get the `reaction`.',
  ...enumeratingControlParts,
  // The service's client sends the control's attack type with a create; listings echo it read-only.
  createConstants: { attack_type: 'brute' },
  // Every account has one the service made: adopted, it is never deleted.
  undeletable: 'adopted',
  examples: [{
    mode: 'block', threshold: { count: 20, period: 60 }, reaction: { block_by_ip: '1h' },
    enumerated_parameters: { mode: 'exact', points: [{ point: [['post'], ['json_doc'], ['hash', 'password']], sensitive: true }] },
    when: [{ point: ['path', 0], equal: 'login' }],
  }, {
    mode: 'monitoring', threshold: { count: 5, period: 10 }, reaction: { graylist_by_ip: '1d' },
    enumerated_parameters: { mode: 'regexp', name_regexps: ['^pass(word)?$'], value_regexps: [''] },
  }],
});
