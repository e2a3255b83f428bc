import { int } from '../field.js';
import { defineRuleKind } from '../kind.js';

/** Declared apart from the kind so their value types are inferred before `describe` reads them. */
const fields = {
  regex_id: int({ min: 1, required: true, example: 12, description: 'The `regex_id` of an existing regex rule of the account.' }),
};

export const ignoreRegex = defineRuleKind({
  yaml: 'ignore_regex',
  api: 'disable_regex',
  description: 'False-positive tuning: one regex rule of the account does not apply at `point` (the API\'s `disable_regex`).',
  point: 'required',
  fields,
  updatable: [],
  describe: (f) => `ignores regex #${f.regex_id ?? '?'}`,
  examples: [{ regex_id: 12, point: [['header', 'USER-AGENT']] }],
});
