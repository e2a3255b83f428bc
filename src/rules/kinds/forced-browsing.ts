import { defineRuleKind } from '../kind.js';
import { controlParts } from './abuse-control.js';

export const forcedBrowsing = defineRuleKind({
  yaml: 'forced_browsing',
  api: 'forced_browsing',
  description: 'Forced-browsing protection: sources that request more than `threshold` missing or hidden resources get the `reaction`.',
  ...controlParts,
  // The service's client sends the control's attack type with a create; listings echo it read-only.
  createConstants: { attack_type: 'dirbust' },
  // Every account has one the service made: adopted, it is never deleted.
  undeletable: 'adopted',
  examples: [{
    mode: 'block', threshold: { count: 30, period: 30 }, reaction: { block_by_ip: '1h' },
    advanced_conditions: [{ field: 'status_code', operator: 'eq', value: ['404'] }],
  }, { mode: 'monitoring', threshold: { count: 5, period: 10 }, reaction: { graylist_by_ip: '1h' } }],
});
