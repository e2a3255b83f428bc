import { compilesAsRegex } from '../checks.js';
import { bool, text } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { credStuffType } from './credential-stuffing.js';

const fields = {
  regex: text({ required: true, example: '^pass(word)?$', description: 'Parameter names that hold a password.', check: compilesAsRegex }),
  login_regex: text({ required: true, maxLength: 4096, example: '^(login|email)$', description: 'Parameter names that hold the login, 1 to 4096 characters.', check: compilesAsRegex }),
  case_sensitive: bool({ required: true, example: false, description: 'Whether both regexes tell upper from lower case.' }),
  cred_stuff_type: credStuffType,
};

export const credentialStuffingRegex = defineRuleKind({
  yaml: 'credential_stuffing_regex',
  api: 'credentials_regex',
  description: 'Credential-stuffing detection: logins and passwords are found in parameters whose names match `login_regex` and `regex`, and checked against leaked credentials (the API\'s `credentials_regex`).',
  point: 'none',
  fields,
  updatable: ['regex', 'login_regex', 'case_sensitive', 'cred_stuff_type'],
  describe: (f) => `login ${JSON.stringify(f.login_regex ?? '')}, password ${JSON.stringify(f.regex ?? '')}`,
  examples: [{ regex: '^pass(word)?$', login_regex: '^(login|email)$', case_sensitive: false, when: [{ point: ['path', 0], equal: 'login' }] }],
});
