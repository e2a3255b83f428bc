import { defineRuleKind } from '../kind.js';
import { controlParts } from './abuse-control.js';

export const rateLimitEnum = defineRuleKind({
  yaml: 'rate_limit_enum',
  api: 'rate_limit_enum',
  description: 'Enumeration by rate: sources that send more than `threshold` requests matching the conditions get the `reaction`.',
  ...controlParts,
  // The service's client sends the control's attack type with a create; listings echo it read-only.
  createConstants: { attack_type: 'rate_limit' },
  examples: [{
    mode: 'monitoring', threshold: { count: 100, period: 60 }, reaction: { graylist_by_ip: '10m' },
    arbitrary_conditions: [{ point: [['header', 'X-CLIENT']], operator: 'eq', value: ['mobile'] }],
  }, { mode: 'block', threshold: { count: 5, period: 10 }, reaction: { block_by_ip: '7d' } }],
});
