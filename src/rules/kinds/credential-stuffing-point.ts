import { defineRuleKind } from '../kind.js';
import { point } from '../leaves.js';
import { credStuffType } from './credential-stuffing.js';

const fields = {
  login_point: point({ required: true, example: [['post'], ['json_doc'], ['hash', 'email']], description: 'Where the login is, two-level as a rule\'s `point`.' }),
  cred_stuff_type: credStuffType,
};

export const credentialStuffingPoint = defineRuleKind({
  yaml: 'credential_stuffing_point',
  api: 'credentials_point',
  description: 'Credential-stuffing detection: the password at `point` and the login at `login_point` are checked against leaked credentials (the API\'s `credentials_point`).',
  point: 'required',
  fields,
  updatable: ['cred_stuff_type'],
  describe: (f) => `login at ${f.login_point?.map((element) => element.join(' ')).join(' › ') ?? '?'}`,
  examples: [
    { point: [['post'], ['json_doc'], ['hash', 'password']], login_point: [['post'], ['json_doc'], ['hash', 'email']] },
    { point: [['post'], ['form_urlencoded', 'pass']], login_point: [['post'], ['form_urlencoded', 'user']], cred_stuff_type: 'default' },
  ],
});
