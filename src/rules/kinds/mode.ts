import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { FILTERING_MODES } from '../../grammar/vocabulary.js';

const fields = {
  mode: oneOf(FILTERING_MODES, { required: true, example: 'block', description: 'Filtering mode: `default` (the node\'s own), `off`, `monitoring`, `safe_blocking` or `block`.' }),
};

export const mode = defineRuleKind({
  yaml: 'mode',
  api: 'service_mode',
  description: 'The filtering mode of the traffic the conditions select (the file\'s `mode:` is one with no conditions).',
  point: 'none',
  onePerScope: true,
  fields,
  updatable: ['mode'],
  evidence: { decides: 'filtering-mode', field: 'mode' },
  describe: (f) => f.mode ?? '?',
  examples: [
    { mode: 'block' },
    { mode: 'monitoring', when: [{ point: ['uri'], equal: '/healthz' }] },
  ],
});
