import { defineRuleKind } from '../kind.js';
import { CONTROL_CHECKS, CONTROL_UPDATABLE, controlFields, describeControl, enumeratedParameters } from './abuse-control.js';

const fields = { ...controlFields, enumerated_parameters: enumeratedParameters };

export const brute = defineRuleKind({
  yaml: 'brute',
  api: 'brute',
  description: 'Brute-force protection: sources that send more than `threshold` requests (with the `enumerated_parameters` watched, such as a password) get the `reaction`.',
  point: 'none',
  fields,
  updatable: [...CONTROL_UPDATABLE, 'enumerated_parameters'],
  checks: CONTROL_CHECKS,
  describe: describeControl,
  examples: [{
    mode: 'block', threshold: { count: 20, period: 60 }, reaction: { block_by_ip: '1h' },
    enumerated_parameters: { mode: 'exact', points: [{ point: [['post'], ['json_doc'], ['hash', 'password']], sensitive: true }] },
    when: [{ point: ['path', 0], equal: 'login' }],
  }],
});
