import { defineRuleKind } from '../kind.js';
import { CONTROL_CHECKS, CONTROL_UPDATABLE, controlFields, describeControl, enumeratedParameters } from './abuse-control.js';

const fields = { ...controlFields, enumerated_parameters: enumeratedParameters };

export const enumeration = defineRuleKind({
  yaml: 'enum',
  api: 'enum',
  description: 'Enumeration protection: sources that try more than `threshold` distinct values of the `enumerated_parameters` (user names, coupon codes) get the `reaction`.',
  point: 'none',
  fields,
  updatable: [...CONTROL_UPDATABLE, 'enumerated_parameters'],
  checks: CONTROL_CHECKS,
  describe: describeControl,
  examples: [{
    mode: 'block', threshold: { count: 10, period: 60 }, reaction: { block_by_session: '30m' },
    enumerated_parameters: { mode: 'exact', points: [{ point: [['post'], ['json_doc'], ['hash', 'username']] }] },
  }],
});
