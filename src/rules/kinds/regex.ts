import { compilesAsRegex } from '../checks.js';
import { bool, oneOf, text } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { REGEX_ATTACK_TYPES } from '../../grammar/vocabulary.js';

const fields = {
  regex: text({
    required: true, example: '.*curltool.*',
    description: 'The regular expression (the service speaks PCRE; Rampart checks it as a JavaScript RegExp).',
    check: compilesAsRegex,
  }),
  attack: oneOf(REGEX_ATTACK_TYPES, { api: 'attack_type', required: true, example: 'scanner', description: 'The attack type a match reports.' }),
  experimental: bool({ absentIs: false, example: true, description: 'Record matches without acting on them (the API type `experimental_regex`).' }),
};

export const regex = defineRuleKind({
  yaml: 'regex',
  api: 'regex',
  description: 'A custom attack indicator: a request whose `point` matches `regex` is an attack of type `attack`. `experimental: true` only records matches (the API\'s `experimental_regex`).',
  point: 'required',
  fields,
  updatable: ['regex'],
  evidence: { decides: 'detection-by-regex', field: 'regex', experimental: 'experimental' },
  variants: [{ api: 'experimental_regex', fields: { experimental: true } }],
  describe: (f) => `${f.experimental ? 'experimental ' : ''}${JSON.stringify(f.regex ?? '')} → ${f.attack ?? '?'}`,
  examples: [
    { regex: '.*curltool.*', attack: 'scanner', point: [['header', 'USER-AGENT']] },
    { regex: '(?i)union\\s+select', attack: 'sqli', point: [['get', 'q']], experimental: true },
  ],
});
