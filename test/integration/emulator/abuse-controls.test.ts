/**
 * The abuse mitigation controls, credential-stuffing rules and counters over
 * HTTP, as the service's notes describe them: what is echoed, where each is
 * listed, what a client may update and what it can never delete.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, useTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
const instance7 = [{ point: ['instance'], type: 'equal', value: '7' }];
const emulators = useTestEmulator();
let emu: TestEmulator;
beforeEach(async () => {
  emu = await emulators.start();
});

const create = (body: Record<string, unknown>) =>
  emu.call('POST', '/v1/objects/hint/create', { clientid: C, validated: false, action: instance7, ...body });
const list = async (): Promise<Record<string, unknown>[]> =>
  (await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] }, limit: 1000 })).body;
const remove = (id: number) => emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id } });
const update = (id: number, body: Record<string, unknown>) => emu.call('PUT', `/v3/hint/${id}`, body);

const BRUTE = {
  type: 'brute', mode: 'block', threshold: { count: 20, period: 60 }, reaction: { block_by_ip: 3600 },
  enumerated_parameters: { mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'], sensitive: true }] },
};

describe('abuse mitigation controls', () => {
  it('are listed as sent, points flat, reaction keys left out as 0, with the read-only attack_type and mitigation', async () => {
    const created = await create(BRUTE);
    expect(created.status).toBe(200);
    const [listed] = await list();
    expect(listed).toMatchObject({
      type: 'brute', mode: 'block', threshold: { count: 20, period: 60 },
      reaction: { block_by_session: 0, block_by_ip: 3600, graylist_by_ip: 0 },
      enumerated_parameters: { mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'], sensitive: true }] },
      attack_type: 'brute', mitigation: 'brute',
    });
    const browsing = await create({ type: 'forced_browsing', mode: 'monitoring', threshold: { count: 5, period: 5 }, reaction: { graylist_by_ip: 600 } });
    expect(browsing.body).toMatchObject({ attack_type: 'dirbust' });
  });

  it('refuses a reaction that does not match the mode, on create and on update', async () => {
    const wrong = await create({ ...BRUTE, reaction: { graylist_by_ip: 600 } });
    expect([wrong.http, wrong.body]).toEqual([400, { reaction: { error: 'reaction does not match mode' } }]);
    const { body } = await create(BRUTE);
    const refused = await update(body.id, { reaction: { graylist_by_ip: 600 } });
    expect([refused.http, refused.body]).toEqual([400, { reaction: { error: 'reaction does not match mode' } }]);
    const changed = await update(body.id, { threshold: { count: 30, period: 60 } });
    expect(changed.body).toMatchObject({ threshold: { count: 30, period: 60 } });
    expect((await update(body.id, { mode: 'monitoring' })).http).toBe(400);
  });
});

describe('credential-stuffing rules', () => {
  const REGEX = { type: 'credentials_regex', regex: '^pass', login_regex: '^login$', case_sensitive: false };

  it('are left out of a normal token\'s hint listing and read from the configs endpoint', async () => {
    const custom = await create(REGEX);
    const standard = await create({ type: 'credentials_point', point: [['post'], ['form_urlencoded', 'password']], login_point: [['post'], ['form_urlencoded', 'login']], cred_stuff_type: 'default' });
    await create({ type: 'vpatch', attack_type: 'any', point: [['get', 'q']] });
    expect((await list()).map((h) => h.type)).toEqual(['vpatch']);
    const configs = await emu.call('GET', `/v4/clients/${C}/credential_stuffing/configs`);
    expect(configs.status).toBe(200);
    expect(configs.body.custom.map((h: { id: number }) => h.id)).toEqual([custom.body.id]);
    expect(configs.body.default).toEqual([expect.objectContaining({ id: standard.body.id, login_point: ['post', 'form_urlencoded', 'login'] })]);
  });

  it('are in the hint listing too for a token with elevated rights', async () => {
    emu.control.setConfig({ elevatedToken: true });
    await create(REGEX);
    expect((await list()).map((h) => h.type)).toEqual(['credentials_regex']);
  });

  it('the configs endpoint names the client the token may not read', async () => {
    const other = await startTestEmulator({ clients: [C] });
    try {
      expect((await other.call('GET', '/v4/clients/555/credential_stuffing/configs')).http).toBe(403);
    } finally {
      await other.close();
    }
  });
});

describe('counters', () => {
  it('carry a read-only counter, come back the same on the same scope, cannot be changed, and a delete does nothing', async () => {
    const first = await create({ type: 'bola_counter' });
    expect(first.body.counter).toBe(`i:${first.body.id}`);
    const again = await create({ type: 'bola_counter' });
    expect(again.body.id).toBe(first.body.id);
    expect((await update(first.body.id, { comment: 'x' })).body).toEqual({ base: { error: 'cannot be updated' } }); // 403: not a missing right
    const deleted = await remove(first.body.id);
    expect([deleted.http, deleted.body]).toEqual([200, []]);
    expect((await list()).map((h) => h.id)).toEqual([first.body.id]);
  });
});

describe('default controls', () => {
  it('every account has them with the switch on: editable, never deleted', async () => {
    emu.control.setConfig({ defaultControls: true });
    const listed = await list();
    expect(listed.map((h) => h.type).sort()).toEqual(['bola', 'brute', 'enum', 'forced_browsing']);
    expect(listed.every((h) => typeof h.comment === 'string' && !String(h.comment).includes('managed-by'))).toBe(true);
    const brute = listed.find((h) => h.type === 'brute') as { id: number };
    expect((await update(brute.id, { threshold: { count: 99, period: 60 } })).status).toBe(200);
    expect((await remove(brute.id)).body).toEqual([]);
    expect((await list()).map((h) => h.type).sort()).toEqual(['bola', 'brute', 'enum', 'forced_browsing']);
  });
});
