import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/emulator/envelope.js';
import { RULE_CATALOGUE } from '../../../src/emulator/rules/catalogue.js';
import { validateHintCreate, type RuleContext } from '../../../src/emulator/rules/validate.js';
import { validateHintUpdate } from '../../../src/emulator/rules/validate-update.js';
import type { HintRecord } from '../../../src/emulator/store.js';

const C = 7;
const context = (over: Partial<RuleContext> = {}): RuleContext => ({
  rewrites: { upperCaseMethod: false },
  extendedToken: true,
  regexExists: (clientid, id) => clientid === C && id === 5,
  ...over,
});

const POINT = [['post'], ['json_doc'], ['hash', 'email']];
/** A valid create body per type: the type-specific fields only. */
const VALID: Readonly<Record<string, Record<string, unknown>>> = {
  vpatch: { attack_type: 'any', point: POINT },
  disable_attack_type: { attack_type: 'invalid_xml', point: POINT },
  disable_stamp: { stamp: 7730, point: POINT },
  regex: { regex: '^curl', attack_type: 'vpatch', point: POINT },
  experimental_regex: { regex: '(?i)select.+from', attack_type: 'sqli', point: POINT },
  disable_regex: { regex_id: 5, point: POINT },
  service_mode: { mode: 'safe_blocking' },
  api_abuse_mode: { mode: 'disabled' },
  sensitive_data: { point: POINT },
  binary_data: { point: POINT },
  uploads: { file_type: 'images', point: POINT },
  parser_state: { parser: 'htmljs', state: 'disabled', point: POINT },
  set_response_header: { mode: 'replace', name: 'X-Frame-Options', values: ['DENY'] },
  overlimit_res_settings: { overlimit_time: 0, mode: 'blocking' },
  rate_limit: { rate: 0, rsp_status: 429, point: [['header', 'X-API-KEY']] },
  file_upload_size_limit: { size: 1, size_unit: 'mb', mode: 'block' },
  graphql_detection: { mode: 'block', max_depth: 1, max_value_size_kb: 10, max_doc_size_kb: 100, max_aliases: 5, max_doc_per_batch: 10 },
  brute: {
    mode: 'block', threshold: { count: 20, period: 60 }, reaction: { block_by_session: 0, block_by_ip: 3600, graylist_by_ip: 0 },
    enumerated_parameters: { mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'], sensitive: true }] },
  },
  bola: {
    mode: 'monitoring', threshold: { count: 5, period: 30 }, reaction: { block_by_session: 0, block_by_ip: 0, graylist_by_ip: 600 },
    enumerated_parameters: { mode: 'regexp', name_regexps: ['^id$'], value_regexps: [''], additional_parameters: false, plain_parameters: false },
  },
  enum: {
    mode: 'block', threshold: { count: 1, period: 1 }, reaction: { block_by_session: 315569520, block_by_ip: 0, graylist_by_ip: 0 },
    enumerated_parameters: { mode: 'regexp', name_regexps: ['^user'], value_regexps: [''], additional_parameters: true, plain_parameters: false },
    advanced_conditions: [{ field: 'method', operator: 'eq', value: ['POST'] }],
  },
  forced_browsing: {
    mode: 'monitoring', threshold: { count: 50, period: 60 }, reaction: { block_by_session: 0, block_by_ip: 0, graylist_by_ip: 86400 },
    arbitrary_conditions: [{ point: [['header', 'X-CLIENT']], operator: 'eq', value: ['mobile'] }],
  },
  rate_limit_enum: { mode: 'block', threshold: { count: 100, period: 10 }, reaction: { block_by_session: 0, block_by_ip: 600, graylist_by_ip: 0 } },
  credentials_regex: { regex: '^pass', login_regex: '^(login|email)$', case_sensitive: false, cred_stuff_type: 'custom' },
  credentials_point: { point: POINT, login_point: [['post'], ['json_doc'], ['hash', 'login']], cred_stuff_type: 'default' },
  brute_counter: {},
  dirbust_counter: {},
  bola_counter: {},
};

/** Where the stored value differs from the one sent: points inside nested values are sent two-level and stored flat. */
const STORED_AS: Readonly<Record<string, Record<string, unknown>>> = {
  forced_browsing: { arbitrary_conditions: [{ point: ['header', 'X-CLIENT'], operator: 'eq', value: ['mobile'] }] },
  credentials_point: { login_point: ['post', 'json_doc', 'hash', 'login'] },
};

const body = (type: string, over: Record<string, unknown> = {}) => ({ clientid: C, type, action: [], validated: false, ...VALID[type], ...over });

/** The field a 400 names, or fails. */
function refusedField(run: () => unknown, status = 400): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(status);
    return Object.keys((error as HttpError).body as object)[0] ?? '';
  }
  throw new Error('expected a refusal');
}

describe('create validation from the catalogue', () => {
  it('has a valid example for every type of the catalogue', () => {
    expect(Object.keys(VALID).sort()).toEqual(Object.keys(RULE_CATALOGUE).sort());
  });

  it.each(Object.keys(VALID))('accepts a valid %s', (type) => {
    const draft = validateHintCreate(body(type), context());
    for (const [name, value] of Object.entries(VALID[type] ?? {})) {
      if (name !== 'point') expect(draft.fields[name]).toEqual(STORED_AS[type]?.[name] ?? value);
    }
  });

  it.each(Object.entries(RULE_CATALOGUE).flatMap(([type, kind]) =>
    Object.entries(kind.fields).filter(([, spec]) => spec.required).map(([field]) => [type, field] as const),
  ))('%s without %s is "can\'t be blank"', (type, field) => {
    for (const missing of [undefined, null, '']) {
      expect(refusedField(() => validateHintCreate(body(type, { [field]: missing }), context()))).toBe(field);
    }
  });

  it.each(Object.entries(RULE_CATALOGUE).filter(([, kind]) => kind.point === 'required').map(([type]) => type))(
    '%s needs a point', (type) => {
      expect(refusedField(() => validateHintCreate(body(type, { point: undefined }), context()))).toBe('point');
    },
  );

  it.each(Object.entries(RULE_CATALOGUE).filter(([, kind]) => kind.point === 'none').map(([type]) => type))(
    '%s takes no point', (type) => {
      expect(refusedField(() => validateHintCreate(body(type, { point: [['get', 'q']] }), context()))).toBe('point');
    },
  );

  it.each([
    ['vpatch', 'attack_type', 'vpatch'],
    ['regex', 'attack_type', 'any'],
    ['regex', 'attack_type', 'invalid_xml'],
    ['service_mode', 'mode', 'blocking'],
    ['api_abuse_mode', 'mode', 'block'],
    ['uploads', 'file_type', 'pdf'],
    ['parser_state', 'parser', 'yaml'],
    ['parser_state', 'state', 'on'],
    ['set_response_header', 'mode', 'set'],
    ['overlimit_res_settings', 'mode', 'block'],
    ['rate_limit', 'time_unit', 'rph'],
    ['file_upload_size_limit', 'size_unit', 'pb'],
    ['file_upload_size_limit', 'mode', 'blocking'],
    ['graphql_detection', 'mode', 'safe_blocking'],
  ])('%s refuses %s %j', (type, field, value) => {
    expect(refusedField(() => validateHintCreate(body(type, { [field]: value }), context()))).toBe(field);
  });

  it.each([
    ['disable_stamp', 'stamp', 0],
    ['rate_limit', 'rate', 1001],
    ['rate_limit', 'rate', -1],
    ['rate_limit', 'rsp_status', 399],
    ['rate_limit', 'rsp_status', 600],
    ['rate_limit', 'delay', 1001],
    ['rate_limit', 'burst', -1],
    ['rate_limit', 'rate', 1.5],
    ['rate_limit', 'rate', '10'],
    ['overlimit_res_settings', 'overlimit_time', -1],
    ['file_upload_size_limit', 'size', 0],
    ['graphql_detection', 'max_depth', -1],
    ['graphql_detection', 'introspection', 'yes'],
    ['set_response_header', 'values', []],
    ['set_response_header', 'values', 'DENY'],
    ['regex', 'regex', '(unclosed'],
  ])('%s refuses %s %j', (type, field, value) => {
    expect(refusedField(() => validateHintCreate(body(type, { [field]: value }), context()))).toBe(field);
  });

  it('accepts a literal 0 where 0 is valid, and the range ends', () => {
    expect(validateHintCreate(body('rate_limit', { rate: 1000, rsp_status: 599, delay: 1000, burst: 0 }), context()).fields)
      .toMatchObject({ rate: 1000, rsp_status: 599, delay: 1000, burst: 0 });
    expect(validateHintCreate(body('rate_limit', { rsp_status: 400 }), context()).fields.rate).toBe(0);
    expect(validateHintCreate(body('overlimit_res_settings'), context()).fields.overlimit_time).toBe(0);
  });

  it('applies the service defaults', () => {
    expect(validateHintCreate(body('rate_limit'), context()).fields).toEqual({ rate: 0, rsp_status: 429, burst: 0, delay: 0, time_unit: 'rps' });
    expect(validateHintCreate(body('graphql_detection', { max_depth: undefined }), context()).fields).toMatchObject({
      max_depth: 10, max_value_size_kb: 10, max_doc_size_kb: 100, max_aliases: 5, max_doc_per_batch: 10, introspection: true, debug_enabled: true,
    });
    // `api_abuse_mode` has a default of `enabled`, but a create must say it (the service's client sends it).
    expect(refusedField(() => validateHintCreate({ clientid: C, type: 'api_abuse_mode', action: [] }, context()))).toBe('mode');
    expect(validateHintCreate({ clientid: C, type: 'overlimit_res_settings', action: [], overlimit_time: 5 }, context()).fields.mode).toBe('monitoring');
    expect(validateHintCreate({ clientid: C, type: 'file_upload_size_limit', action: [], size: 5 }, context()).fields)
      .toEqual({ size: 5, size_unit: 'b', mode: 'monitoring' });
    expect(validateHintCreate(body('credentials_regex', { cred_stuff_type: undefined }), context()).fields.cred_stuff_type).toBe('custom');
    expect(validateHintCreate(body('file_upload_size_limit'), context()).point).toEqual([]);
    expect(validateHintCreate(body('file_upload_size_limit', { point: [['post']] }), context()).point).toEqual(['post']);
  });

  it('refuses a field the type does not take', () => {
    expect(refusedField(() => validateHintCreate(body('vpatch', { regex: 'x' }), context()))).toBe('regex');
    expect(refusedField(() => validateHintCreate(body('service_mode', { attack_type: 'any' }), context()))).toBe('attack_type');
    expect(refusedField(() => validateHintCreate(body('regex', { regex_id: 5 }), context()))).toBe('regex_id');
    expect(refusedField(() => validateHintCreate(body('vpatch', { id: 3 }), context()))).toBe('id');
  });

  it('disable_regex needs a regex rule of the same account', () => {
    expect(refusedField(() => validateHintCreate(body('disable_regex', { regex_id: 6 }), context()))).toBe('regex_id');
    expect(refusedField(() => validateHintCreate(body('disable_regex', { clientid: 8 }), context()))).toBe('regex_id');
  });

  it('disable_stamp without an extended admin token is 403', () => {
    refusedField(() => validateHintCreate(body('disable_stamp'), context({ extendedToken: false })), 403);
  });

  it('keeps accepting types outside the catalogue, fields as sent', () => {
    const draft = validateHintCreate({ clientid: C, type: 'attack_rechecker', action: [], state: 'off', id: 99 }, context());
    expect(draft.fields).toEqual({ state: 'off' });
    expect(refusedField(() => validateHintCreate({ clientid: C, type: 'nonsense', action: [] }, context()))).toBe('type');
  });
});

describe('abuse mitigation controls, credential stuffing and counters', () => {
  it('stores points inside nested values flat, reaction keys left out as 0, regexp flags as the service fills them', () => {
    const brute = validateHintCreate(body('brute', {
      reaction: { block_by_ip: 3600 },
      enumerated_parameters: { mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'] }] },
      arbitrary_conditions: [{ point: [['header', 'X-Client']], operator: 'eq', value: ['app'] }],
    }), context());
    expect(brute.fields).toMatchObject({
      reaction: { block_by_session: 0, block_by_ip: 3600, graylist_by_ip: 0 },
      enumerated_parameters: { mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'], sensitive: false }] },
      arbitrary_conditions: [{ point: ['header', 'X-Client'], operator: 'eq', value: ['app'] }],
    });
    const bola = validateHintCreate(body('bola', { enumerated_parameters: { mode: 'regexp', name_regexps: ['id'], value_regexps: [''] } }), context());
    expect(bola.fields.enumerated_parameters).toEqual({ mode: 'regexp', name_regexps: ['id'], value_regexps: [''], additional_parameters: true, plain_parameters: true });
    const login = validateHintCreate(body('credentials_point', { login_point: [['post'], ['json_doc'], ['hash', 'login']] }), context());
    expect(login.fields.login_point).toEqual(['post', 'json_doc', 'hash', 'login']);
  });

  it.each([
    ['a block control with graylist_by_ip', 'brute', { reaction: { graylist_by_ip: 600 } }, 'reaction'],
    ['a monitoring control with block_by_ip', 'bola', { reaction: { block_by_ip: 600 } }, 'reaction'],
    ['a threshold count of 0', 'brute', { threshold: { count: 0, period: 60 } }, 'threshold'],
    ['a threshold without period', 'brute', { threshold: { count: 5 } }, 'threshold'],
    ['a reaction below 600 s', 'brute', { reaction: { block_by_ip: 60 } }, 'reaction'],
    ['a reaction with nothing set', 'brute', { reaction: { block_by_ip: 0 } }, 'reaction'],
    ['exact mode with name_regexps', 'brute', { enumerated_parameters: { mode: 'exact', points: [{ point: ['get', 'q'] }], name_regexps: ['x'] } }, 'enumerated_parameters'],
    ['regexp mode without value_regexps', 'bola', { enumerated_parameters: { mode: 'regexp', name_regexps: ['x'] } }, 'enumerated_parameters'],
    ['an unknown enumerated mode', 'bola', { enumerated_parameters: { mode: 'fuzzy' } }, 'enumerated_parameters'],
    ['an unknown advanced_conditions field', 'enum', { advanced_conditions: [{ field: 'cookie', operator: 'eq', value: ['x'] }] }, 'advanced_conditions'],
    ['an unknown operator', 'enum', { advanced_conditions: [{ field: 'ip', operator: 'like', value: ['x'] }] }, 'advanced_conditions'],
    ['enumerated_parameters on forced_browsing', 'forced_browsing', { enumerated_parameters: { mode: 'regexp', name_regexps: [''], value_regexps: [''] } }, 'enumerated_parameters'],
    ['a login_regex over 4096 characters', 'credentials_regex', { login_regex: 'a'.repeat(4097) }, 'login_regex'],
    ['an unknown cred_stuff_type', 'credentials_regex', { cred_stuff_type: 'other' }, 'cred_stuff_type'],
    ['graphql max_depth 0', 'graphql_detection', { max_depth: 0 }, 'max_depth'],
    ['graphql max_doc_size_kb over 1024', 'graphql_detection', { max_doc_size_kb: 1025 }, 'max_doc_size_kb'],
    ['graphql max_alias_size_kb, a name the service does not have', 'graphql_detection', { max_alias_size_kb: 5 }, 'max_alias_size_kb'],
    ['a flat point in arbitrary_conditions', 'forced_browsing', { arbitrary_conditions: [{ point: ['header', 'X-CLIENT'], operator: 'eq', value: ['m'] }] }, 'arbitrary_conditions'],
    ['a flat login_point', 'credentials_point', { login_point: ['post', 'json_doc', 'hash', 'login'] }, 'login_point'],
    ['a two-level point in enumerated_parameters', 'brute', { enumerated_parameters: { mode: 'exact', points: [{ point: [['get', 'id']] }] } }, 'enumerated_parameters'],
    ['a brute control without enumerated_parameters', 'brute', { enumerated_parameters: undefined }, 'enumerated_parameters'],
    ['a vpatch without attack_type', 'vpatch', { attack_type: undefined }, 'attack_type'],
    ['a control whose attack_type is not its own', 'forced_browsing', { attack_type: 'brute' }, 'attack_type'],
    ['a counter with a field', 'brute_counter', { counter: 'b:1' }, 'counter'],
  ])('refuses %s', (_what, type, over, field) => {
    expect(refusedField(() => validateHintCreate(body(type, over), context()))).toBe(field);
  });

  const stored = (type: string, over: Record<string, unknown> = {}): HintRecord => ({
    id: 1, actionid: 1, clientid: C, type, action: [], point: [], attack_type: null, regex: null, regex_id: null,
    mode: null, comment: null, validated: false, variativity_disabled: true, active: true, title: null, set: null, system: false,
    create_time: 1, updated_at: 1, ...validateHintCreate(body(type, over), context()).fields,
  });

  it('checks an update against the mode the control was made with', () => {
    expect(refusedField(() => validateHintUpdate(stored('brute'), { reaction: { graylist_by_ip: 600 } }, context()))).toBe('reaction');
    expect(validateHintUpdate(stored('brute'), { reaction: { block_by_session: 600 } }, context()))
      .toMatchObject({ reaction: { block_by_session: 600, block_by_ip: 0, graylist_by_ip: 0 } });
    expect(refusedField(() => validateHintUpdate(stored('brute'), { mode: 'monitoring' }, context()))).toBe('mode');
    expect(refusedField(() => validateHintUpdate(stored('brute'), { advanced_conditions: [] }, context()))).toBe('advanced_conditions');
  });

  it('refuses null and out-of-range values in an update', () => {
    expect(refusedField(() => validateHintUpdate(stored('graphql_detection'), { max_value_size_kb: null }, context()))).toBe('max_value_size_kb');
    expect(refusedField(() => validateHintUpdate(stored('graphql_detection'), { max_depth: 0 }, context()))).toBe('max_depth');
    expect(refusedField(() => validateHintUpdate(stored('graphql_detection'), { max_alias_size_kb: 6 }, context()))).toBe('max_alias_size_kb');
    expect(refusedField(() => validateHintUpdate(stored('rate_limit'), { burst: 1001 }, context()))).toBe('burst');
  });

  it('a counter cannot be changed: 403 naming the object, not a missing right', () => {
    expect(refusedField(() => validateHintUpdate(stored('dirbust_counter'), { comment: 'x' }, context()), 403)).toBe('base');
  });
});

describe('update validation from the catalogue', () => {
  const record = (type: string, fields: Record<string, unknown> = {}): HintRecord => ({
    id: 1, actionid: 1, clientid: C, type, action: [], point: [], attack_type: null, regex: null, regex_id: null,
    mode: null, comment: null, validated: false, variativity_disabled: true, active: true, title: null, set: null, system: false,
    create_time: 1, updated_at: 1, ...fields,
  });

  it.each(Object.entries(RULE_CATALOGUE).flatMap(([type, kind]) => kind.updatable.map((field) => [type, field] as const)))(
    '%s may change %s', (type, field) => {
      const value = VALID[type]?.[field] ?? validateHintCreate(body(type), context()).fields[field];
      const stored = validateHintCreate(body(type), context()).fields;
      // The field as sent; every other mutable field the body leaves out is reset (validate-update.ts).
      expect(validateHintUpdate(record(type, stored), { [field]: value }, context())).toMatchObject({ [field]: value, active: true, title: null });
    },
  );

  it.each(Object.entries(RULE_CATALOGUE).flatMap(([type, kind]) =>
    Object.keys(kind.fields).filter((f) => !kind.updatable.includes(f)).map((field) => [type, field] as const),
  ))('%s may not change %s', (type, field) => {
    expect(refusedField(() => validateHintUpdate(record(type), { [field]: VALID[type]?.[field] }, context()))).toBe(field);
  });

  it.each(['type', 'clientid', 'action', 'point', 'validated', 'regex_id'])('no type may change %s', (field) => {
    expect(refusedField(() => validateHintUpdate(record('vpatch'), { [field]: 'x' }, context()))).toBe(field);
  });

  it('checks new values as on create, comment included', () => {
    expect(refusedField(() => validateHintUpdate(record('rate_limit'), { rate: 1001 }, context()))).toBe('rate');
    expect(refusedField(() => validateHintUpdate(record('service_mode'), { mode: null }, context()))).toBe('mode');
    expect(refusedField(() => validateHintUpdate(record('vpatch'), { comment: '' }, context()))).toBe('comment');
    expect(refusedField(() => validateHintUpdate(record('vpatch'), { regex: 'x' }, context()))).toBe('regex');
    expect(refusedField(() => validateHintUpdate(record('vpatch'), {}, context()))).toBe('body');
    expect(validateHintUpdate(record('overlimit_res_settings'), { overlimit_time: 0, comment: 'x' }, context())).toEqual({
      overlimit_time: 0, comment: 'x', mode: 'monitoring', title: null, set: null, active: true, variativity_disabled: false,
    });
  });
});
