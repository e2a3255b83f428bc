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
  graphql_detection: { mode: 'block', max_depth: 0, max_value_size_kb: 10, max_doc_size_kb: 100, max_aliases: 5, max_doc_per_batch: 10 },
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
    for (const [name, value] of Object.entries(VALID[type] ?? {})) if (name !== 'point') expect(draft.fields[name]).toEqual(value);
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
    expect(validateHintCreate(body('graphql_detection'), context()).fields).toMatchObject({ introspection: false, debug_enabled: false });
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
    const draft = validateHintCreate({ clientid: C, type: 'bola_counter', action: [], counter: 'x', id: 99 }, context());
    expect(draft.fields).toEqual({ counter: 'x' });
    expect(refusedField(() => validateHintCreate({ clientid: C, type: 'nonsense', action: [] }, context()))).toBe('type');
  });
});

describe('update validation from the catalogue', () => {
  const record = (type: string, fields: Record<string, unknown> = {}): HintRecord => ({
    id: 1, actionid: 1, clientid: C, type, action: [], point: [], attack_type: null, regex: null, regex_id: null,
    mode: null, comment: null, validated: false, variativity_disabled: true, active: true, system: false,
    create_time: 1, updated_at: 1, ...fields,
  });

  it.each(Object.entries(RULE_CATALOGUE).flatMap(([type, kind]) => kind.updatable.map((field) => [type, field] as const)))(
    '%s may change %s', (type, field) => {
      const value = VALID[type]?.[field] ?? validateHintCreate(body(type), context()).fields[field];
      expect(validateHintUpdate(record(type), { [field]: value }, context())).toEqual({ [field]: value });
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
    expect(validateHintUpdate(record('overlimit_res_settings'), { overlimit_time: 0, comment: 'x' }, context())).toEqual({ overlimit_time: 0, comment: 'x' });
  });
});
