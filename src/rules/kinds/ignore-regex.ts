import { int, ref } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  regex_id: int({ min: 1, example: 12, description: 'The `regex_id` of an existing regex rule of the account.' }),
  regex_rule: ref({
    kind: 'regex', idField: 'regex_id', example: 'curltool-scanner', maxLength: 128,
    description: 'The `name` of a `regex` rule in the same file: its `regex_id` is looked up, or taken from its create when Rampart makes it in the same apply.',
  }),
};

export const ignoreRegex = defineRuleKind({
  yaml: 'ignore_regex',
  api: 'disable_regex',
  description: 'False-positive tuning: one regex rule of the account does not apply at `point` (the API\'s `disable_regex`). Name the regex rule by `regex_rule` (in the same file) or give its `regex_id`.',
  point: 'required',
  fields,
  updatable: [],
  exactlyOne: ['regex_id', 'regex_rule'],
  describe: (f) => (f.regex_rule !== undefined ? `ignores regex rule ${f.regex_rule}` : `ignores regex #${f.regex_id ?? '?'}`),
  examples: [{ regex_id: 12, point: [['header', 'USER-AGENT']] }],
});
