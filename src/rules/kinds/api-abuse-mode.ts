import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  mode: oneOf(['enabled', 'disabled'] as const, {
    // The service requires `mode` on create; its own client sends `enabled` when none is set.
    serviceDefault: 'enabled', createDefault: 'enabled', example: 'enabled',
    description: '`enabled` (the service\'s value when left out) or `disabled`.',
  }),
};

export const apiAbuseMode = defineRuleKind({
  yaml: 'api_abuse_mode',
  api: 'api_abuse_mode',
  description: 'API abuse prevention on or off for the traffic the conditions select.',
  point: 'none',
  onePerScope: true,
  fields,
  updatable: ['mode'],
  describe: (f) => f.mode ?? 'enabled',
  examples: [{ mode: 'enabled' }],
});
