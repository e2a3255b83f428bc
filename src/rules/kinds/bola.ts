import { defineRuleKind } from '../kind.js';
import { enumeratingControlParts } from './abuse-control.js';

export const bola = defineRuleKind({
  yaml: 'bola',
  api: 'bola',
  description: 'BOLA protection (broken object-level authorization): sources that walk through more than `threshold` object ids (the `enumerated_parameters`) get the `reaction`.',
  ...enumeratingControlParts,
  // The service's client sends the control's attack type with a create; listings echo it read-only.
  createConstants: { attack_type: 'bola' },
  // Every account has one the service made: adopted, it is never deleted.
  undeletable: 'adopted',
  examples: [{
    mode: 'monitoring', threshold: { count: 50, period: 30 }, reaction: { graylist_by_ip: '1d' },
    enumerated_parameters: { mode: 'regexp', name_regexps: ['^order_id$'], value_regexps: [''] },
    when: [{ point: ['path', 0], equal: 'orders' }],
  }, {
    mode: 'block', threshold: { count: 5, period: 10 }, reaction: { block_by_session: '1h' },
    enumerated_parameters: { mode: 'exact', points: [{ point: [['get', 'id']] }] },
  }],
});
