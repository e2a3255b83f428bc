import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

export const apiAbuseMode = defineRuleKind({
  yaml: 'api_abuse_mode',
  api: 'api_abuse_mode',
  description: 'API abuse prevention on or off for the traffic the conditions select.',
  point: 'none',
  onePerScope: true,
  fields: {
    mode: oneOf(['enabled', 'disabled'] as const, { required: true, example: 'enabled', description: '`enabled` or `disabled`.' }),
  },
  updatable: ['mode'],
  describe: (f) => `api abuse ${f.mode ?? '?'}`,
  examples: [{ mode: 'enabled' }],
});
