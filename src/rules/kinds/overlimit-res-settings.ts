import { int, oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  overlimit_time: int({ min: 0, required: true, example: 1000, description: 'Time limit in milliseconds (0 is valid).' }),
  mode: oneOf(['off', 'monitoring', 'blocking'] as const, { serviceDefault: 'monitoring', example: 'monitoring', description: '`off`, `monitoring` or `blocking`.' }),
};

export const overlimitResSettings = defineRuleKind({
  yaml: 'overlimit_res_settings',
  api: 'overlimit_res_settings',
  description: 'Requests that take the node longer than `overlimit_time` to analyse: what the node does with them.',
  point: 'none',
  onePerScope: true,
  fields,
  updatable: ['overlimit_time', 'mode'],
  describe: (f) => `over ${f.overlimit_time ?? '?'} ms: ${f.mode ?? 'monitoring'}`,
  examples: [{ overlimit_time: 1000, mode: 'monitoring' }],
});
