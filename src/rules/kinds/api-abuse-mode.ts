import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  mode: oneOf(['enabled', 'disabled'] as const, { required: true, example: 'enabled', description: '`enabled` or `disabled`.' }),
};

export const apiAbuseMode = defineRuleKind({
  yaml: 'api_abuse_mode',
  api: 'api_abuse_mode',
  description: 'API abuse prevention on or off for the traffic the conditions select.',
  point: 'none',
  onePerScope: true,
  fields,
  updatable: ['mode'],
  describe: (f) => f.mode ?? '?',
  examples: [{ mode: 'enabled' }],
});
