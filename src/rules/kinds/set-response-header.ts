import { oneOf, strings, text } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  mode: oneOf(['append', 'replace'] as const, { required: true, example: 'replace', description: '`append` adds the values; `replace` sets the header to them.' }),
  header: text({ api: 'name', required: true, example: 'Strict-Transport-Security', maxLength: 256, description: 'The header to set (the API\'s `name`).' }),
  values: strings({ required: true, example: ['max-age=31536000'], description: 'The header values, in order.' }),
};

export const setResponseHeader = defineRuleKind({
  yaml: 'set_response_header',
  api: 'set_response_header',
  description: 'Adds or replaces a header in the responses to the traffic the conditions select.',
  point: 'none',
  fields,
  updatable: ['mode', 'header', 'values'],
  describe: (f) => `${f.mode ?? '?'} ${f.header ?? '?'}: ${(f.values ?? []).join(', ')}`,
  examples: [{ mode: 'replace', header: 'Strict-Transport-Security', values: ['max-age=31536000'] }],
});
