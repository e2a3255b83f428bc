import { defineRuleKind } from '../kind.js';

export const masking = defineRuleKind({
  yaml: 'masking',
  api: 'sensitive_data',
  description: 'Masking: the value at `point` is masked before request data leaves the node (the API\'s `sensitive_data`).',
  point: 'required',
  fields: {},
  updatable: [],
  describe: () => 'masks the value',
  examples: [{ point: [['post'], ['json_doc'], ['hash', 'card']] }],
});
