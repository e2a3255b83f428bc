import { defineRuleKind } from '../kind.js';
import { CONTROL_CHECKS, CONTROL_UPDATABLE, controlFields, describeControl } from './abuse-control.js';

export const forcedBrowsing = defineRuleKind({
  yaml: 'forced_browsing',
  api: 'forced_browsing',
  description: 'Forced-browsing protection: sources that request more than `threshold` missing or hidden resources get the `reaction`.',
  point: 'none',
  fields: controlFields,
  updatable: CONTROL_UPDATABLE,
  checks: CONTROL_CHECKS,
  describe: describeControl,
  examples: [{
    mode: 'block', threshold: { count: 30, period: 30 }, reaction: { block_by_ip: '1h' },
    advanced_conditions: [{ field: 'status_code', operator: 'eq', value: ['404'] }],
  }],
});
