import { defineRuleKind } from '../kind.js';
import { enumeratingControlParts } from './abuse-control.js';

export const enumeration = defineRuleKind({
  yaml: 'enum',
  api: 'enum',
  description: 'Enumeration protection: sources that try more than `threshold` distinct values of the `enumerated_parameters` (user names, coupon codes) get the `reaction`.',
  ...enumeratingControlParts,
  // The service's client sends the control's attack type with a create; listings echo it read-only.
  createConstants: { attack_type: 'enum' },
  // Every account has one the service made: adopted, it is never deleted.
  undeletable: 'adopted',
  examples: [{
    mode: 'block', threshold: { count: 10, period: 60 }, reaction: { block_by_session: '30m' },
    enumerated_parameters: { mode: 'exact', points: [{ point: [['post'], ['json_doc'], ['hash', 'username']] }] },
  }, {
    mode: 'monitoring', threshold: { count: 5, period: 10 }, reaction: { graylist_by_ip: '1h' },
    enumerated_parameters: { mode: 'regexp', name_regexps: ['^user(name)?$'], value_regexps: [''], plain_parameters: true },
  }],
});
