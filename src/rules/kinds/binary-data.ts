import { defineRuleKind } from '../kind.js';

export const binaryData = defineRuleKind({
  yaml: 'binary_data',
  api: 'binary_data',
  description: 'Binary data: the value at `point` is binary and is not searched for attacks.',
  point: 'required',
  fields: {},
  updatable: [],
  describe: () => 'binary, not parsed',
  examples: [{ point: [['post'], ['multipart', 'avatar']] }],
});
