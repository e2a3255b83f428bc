import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { PARSERS } from '../../grammar/vocabulary.js';

const fields = {
  parser: oneOf(PARSERS, { required: true, example: 'base64', description: 'The parser to switch.' }),
  state: oneOf(['enabled', 'disabled'] as const, { required: true, example: 'disabled', description: '`enabled` or `disabled`.' }),
};

export const parserState = defineRuleKind({
  yaml: 'parser_state',
  api: 'parser_state',
  description: 'Parser switch: turns one of the node\'s parsers on or off for the value at `point`.',
  point: 'required',
  fields,
  updatable: ['parser', 'state'],
  describe: (f) => `parser ${f.parser ?? '?'} ${f.state ?? '?'}`,
  examples: [{ parser: 'base64', state: 'disabled', point: [['header', 'X-TRACE']] }],
});
