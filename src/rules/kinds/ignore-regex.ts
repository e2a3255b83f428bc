import { int } from '../field.js';
import { defineRuleKind } from '../kind.js';

export const ignoreRegex = defineRuleKind({
  yaml: 'ignore_regex',
  api: 'disable_regex',
  description: 'False-positive tuning: one regex rule of the account does not apply at `point` (the API\'s `disable_regex`).',
  point: 'required',
  fields: {
    regex_id: int({ min: 1, required: true, example: 12, description: 'The `regex_id` of an existing regex rule of the account.' }),
  },
  updatable: [],
  describe: (f) => `ignores regex #${f.regex_id ?? '?'}`,
  examples: [{ regex_id: 12, point: [['header', 'USER-AGENT']] }],
});
