import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
let emu: TestEmulator;
beforeEach(async () => {
  emu = await startTestEmulator();
});
afterEach(async () => {
  await emu.close();
});

const create = (body: Record<string, unknown>) =>
  emu.call('POST', '/v1/objects/hint/create', { clientid: C, validated: false, action: [{ point: ['instance'], type: 'equal', value: '7' }], ...body });
const list = async () => (await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] }, limit: 1000 })).body;

describe('the rule catalogue over HTTP', () => {
  it('creates every kind, stores its fields, echoes the service defaults and lists points flat', async () => {
    const rate = await create({ type: 'rate_limit', rate: 0, rsp_status: 429, point: [['post'], ['json_doc'], ['hash', 'login']] });
    expect(rate.status).toBe(200);
    expect(rate.body).toMatchObject({ type: 'rate_limit', rate: 0, rsp_status: 429, burst: 0, delay: 0, time_unit: 'rps', attack_type: null, mode: null });
    const gql = await create({ type: 'graphql_detection', mode: 'block', max_depth: 12 });
    expect(gql.body).toMatchObject({
      mode: 'block', max_depth: 12, max_value_size_kb: 10, max_doc_size_kb: 100, max_aliases: 5, max_doc_per_batch: 10,
      introspection: true, debug_enabled: true, point: [],
    });
    const header = await create({ type: 'set_response_header', mode: 'append', name: 'X-Frame-Options', values: ['DENY', 'SAMEORIGIN'] });
    expect(header.body).toMatchObject({ mode: 'append', name: 'X-Frame-Options', values: ['DENY', 'SAMEORIGIN'], point: [] });
    const upload = await create({ type: 'file_upload_size_limit', size: 10, size_unit: 'mb', mode: 'block' });
    expect(upload.body).toMatchObject({ size: 10, size_unit: 'mb', mode: 'block', point: [] });
    const parser = await create({ type: 'parser_state', parser: 'gql', state: 'disabled', point: [['post']] });
    expect(parser.body).toMatchObject({ parser: 'gql', state: 'disabled', point: ['post'] });

    const listed = await list();
    expect(listed.find((h: { id: number }) => h.id === rate.body.id).point).toEqual(['post', 'json_doc', 'hash', 'login']);
    expect(listed).toHaveLength(5);
  });

  it('answers 400 in the service shape naming the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ type: 'rate_limit', rsp_status: 429, point: [['get', 'q']] }, 'rate', /can't be blank/],
      [{ type: 'rate_limit', rate: 10, rsp_status: 200, point: [['get', 'q']] }, 'rsp_status', /greater than or equal to 400/],
      [{ type: 'uploads', file_type: 'pdf', point: [['post']] }, 'file_type', /must be one of/],
      [{ type: 'service_mode', mode: 'block', point: [['get', 'q']] }, 'point', /not taken/],
      [{ type: 'service_mode', mode: 'block', stamp: 1 }, 'stamp', /not a field of service_mode/],
      [{ type: 'vpatch', attack_type: 'any', point: [['path', 'x']] }, 'point', /integer index/],
    ];
    for (const [body, field, message] of cases) {
      const r = await create(body);
      expect([r.http, r.status]).toEqual([400, 400]);
      expect(Object.keys(r.body)).toEqual([field]);
      expect(r.body[field].error).toMatch(message);
    }
    expect(await list()).toEqual([]);
  });

  it('disable_regex needs the regex_id of a live regex rule of the account', async () => {
    const regex = await create({ type: 'experimental_regex', regex: 'a+b', attack_type: 'sqli', point: [['get', 'q']] });
    const regexId = regex.body.regex_id;
    expect(regexId).toBeGreaterThan(0);
    expect((await create({ type: 'disable_regex', regex_id: regexId, point: [['get', 'q']] })).body).toMatchObject({ type: 'disable_regex', regex_id: regexId });
    expect((await create({ type: 'disable_regex', regex_id: regexId + 1, point: [['get', 'q']] })).body.regex_id.error).toBeDefined();
    const other = await emu.call('POST', '/v1/objects/hint/create', { clientid: 5, type: 'disable_regex', regex_id: regexId, point: [['get', 'q']], action: [] });
    expect(other.http).toBe(400);
    await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: regex.body.id } });
    expect((await create({ type: 'disable_regex', regex_id: regexId, point: [['get', 'q']] })).http).toBe(400);
  });

  it('disable_stamp needs an extended admin token when the switch says the token is not one', async () => {
    const stamp = { type: 'disable_stamp', stamp: 7730, point: [['get', 'q']] };
    expect((await create(stamp)).status).toBe(200);
    emu.control.setConfig({ extendedToken: false });
    const refused = await create(stamp);
    expect(refused.http).toBe(403);
    expect(refused.body).toEqual({ permissions: { error: 'invalid', reason: 'check access failed' } });
  });
});
