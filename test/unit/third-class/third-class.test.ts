/**
 * Proof by construction that an object class is its parts and its
 * registrations: the banner (banner-class.ts), defined in this folder and
 * nowhere in src/, goes through the real pipeline beside the built-in IP
 * entries of an emulated account: the live read, the plan (diff, order,
 * counts, safety, digests, the document and its checksum), the text a
 * reviewer reads, the apply (writes, deletes, the settle wait, the write
 * journal), the audit (each write's cause, the converged memory) and a
 * daemon cycle. The test names the registration points it needed. Then the
 * banner again with only the core of each side: each layer passes over the
 * capabilities it does not implement.
 */
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import type { DeclaredFingerprints } from '../../../src/audit/declared-fingerprints.js';
import { listingKey, type ListingKey } from '../../../src/live/listing-key.js';
import { desiredListingSizes } from '../../../src/live/listing-sizes.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { createLogger } from '../../../src/log.js';
import type { DesiredState } from '../../../src/model/state.js';
import { registeredClasses } from '../../../src/model/object-class.js';
import { classesInPlanOrder } from '../../../src/plan/classes/index.js';
import { encodePlan, encodePlanBody, hasChanges, renderMarkdown, renderText } from '../../../src/plan/index.js';
import { loadPolicies } from '../../../src/policy/index.js';
import { selectObjects } from '../../../src/export/select.js';
import { evaluateChanges } from '../../../src/impact/evaluate.js';
import { RequestIndex } from '../../../src/impact/requests.js';
import { loadDesired, prepare, type Prepared } from '../../../src/reconcile/prepare.js';
import { reconcile, type Reconciled } from '../../../src/reconcile/reconcile.js';
import { FIRST_CYCLE, runCycle, type CycleMemory } from '../../../src/reconcile/cycle.js';
import { runSettings } from '../../../src/reconcile/settings.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';
import { BANNER, BANNERS, BannerService, registerBanners, type DesiredBanner } from './banner-class.js';

const CLIENT = 10042;
const SHOP = `version: 1\nclient: ${CLIENT}\napplication: 7\nip_lists:\n  deny:\n    - ips: [203.0.113.9]\n      reason: scanner\n`;

/** The banners the test declares (the policy language has no words for them: they join the loaded state). */
const declared = (texts: Record<string, string>): DesiredBanner[] => Object.entries(texts).map(([name, text], i) => ({
  client: CLIENT, name, text, source: { file: 'banners.yaml', line: i + 1, col: 3, name },
}));

/** An emulated account with the policy files and a banner service, the banner registered with `sides`; and the pipeline's steps over them. */
function bannerAccount(sides: Parameters<typeof registerBanners>[1]) {
  const account = {
    emulator: undefined as unknown as TestEmulator,
    api: undefined as unknown as ServiceApi,
    policies: undefined as unknown as PolicyDir,
    service: new BannerService(),
    registration: undefined as unknown as ReturnType<typeof registerBanners>,
    banners: [] as DesiredBanner[],
    written: [] as Record<string, unknown>[],
  };
  let http: ApiClient;
  const logger = createLogger({
    format: 'json',
    level: 'info',
    destination: new Writable({ write(line: Buffer, _encoding, done) {
      const record = JSON.parse(line.toString()) as Record<string, unknown>;
      if (record.msg === 'write') account.written.push(record);
      done();
    } }),
  });

  beforeAll(async () => {
    account.emulator = await startTestEmulator();
    http = new ApiClient({ baseUrl: account.emulator.url, credentials: { token: TEST_TOKEN } });
    account.api = new ServiceApi(http);
    account.policies = await policyDir({ 'shop.yaml': SHOP });
    account.registration = registerBanners(account.service, sides);
  });

  afterAll(async () => {
    // The suite's workers share one module graph: the tables must be as they were.
    account.registration.unregister();
    expect([registeredClasses(), classesInPlanOrder()]).toEqual([['rule', 'ip'], ['rule', 'ip']]);
    await http.close();
    await account.emulator.close();
    await account.policies.cleanup();
  });

  afterEach(() => {
    account.written.length = 0;
  });

  const plan = async (journal?: WriteJournal, onListed?: (key: ListingKey, objects: number) => void): Promise<Prepared> => {
    const policy = await loadDesired({
      policies: account.policies.dir,
      load: async (dir) => {
        const loaded = await loadPolicies(dir);
        const desired = loaded.desired && { ...loaded.desired, [BANNERS]: account.banners } as DesiredState;
        return { ...loaded, ...(desired ? { desired } : {}) };
      },
    });
    return prepare({ policies: account.policies.dir, policy, api: account.api, settings: runSettings(), ...(journal ? { journal } : {}), ...(onListed ? { onListed } : {}) });
  };

  const apply = (prepared: Prepared, converged?: DeclaredFingerprints, journal?: WriteJournal): Promise<Reconciled> => reconcile({
    plan: prepared.plan,
    desired: prepared.desired,
    // What the declarations are: the files', and the banners' the test adds to them.
    digest: `${prepared.policy.digest ?? ''}|${JSON.stringify(account.banners)}`,
    live: prepared.live,
    ...(converged ? { converged: async () => converged } : {}),
    // With a journal, the listing is left to lag: the journal stands in for it.
    settings: { ...runSettings(), settleTimeoutMs: journal ? 0 : 5_000 },
    ...(journal ? { journal } : {}),
    api: account.api,
    logger,
    nextStep: 'run apply again',
  });

  return { account, logger, plan, apply };
}

describe('a third object class, registered from test code', () => {
  const { account, logger, plan, apply } = bannerAccount('every capability');
  const { written } = account;

  let converged: DeclaredFingerprints | undefined;

  it('needs one registration point per layer it passes through, and no edit elsewhere in src/', () => {
    expect(account.registration.points).toEqual([
      'model: registerObjectClass',
      'live: registerLiveClass',
      'plan: registerPlanClass',
      'render: registerClassBlocks',
      'apply: registerApplyClass',
      'audit: registerAuditClass',
    ]);
  });

  it('plans, renders, applies and audits a banner beside an IP entry', async () => {
    account.service.seed({ client: CLIENT, name: 'maintenance', text: 'Back soon' });
    account.service.seed({ client: CLIENT, name: 'old-promo', text: 'Sale!', owner: 'rampart' });
    account.banners = declared({ blocked: 'Access denied', maintenance: 'Back soon' });

    const listed = new Map<string, number>();
    const prepared = await plan(undefined, (key, objects) => listed.set(key, objects));
    const { plan: made } = prepared;
    // The listing sizes: what the declarations promise at least, and what the read found.
    expect(desiredListingSizes(prepared.desired).get(listingKey(CLIENT, BANNERS))).toBe(2);
    expect(listed.get(listingKey(CLIENT, BANNERS))).toBe(2);
    const changes = made.changes.map((c) => `${c.action} ${c.kind}`);
    // Creates before deletes; within an action, the IP entries (order 1) before the banners (order 2).
    expect(changes).toEqual(['create ip', 'create banner', 'delete banner']);
    expect(made.summary).toMatchObject({ create: 2, delete: 1, unchanged: 1 });
    expect(made.unmanaged).toEqual([expect.objectContaining({ kind: BANNER, id: 1, name: 'maintenance' })]);
    expect(made.safety.ownedCount).toBe(1);

    const document = encodePlan(made);
    expect(document.changes.filter((c) => (c.kind as string) === BANNER)).toEqual([
      { kind: BANNER, action: 'create', client: CLIENT, application: 'all', name: 'blocked', text: 'Access denied', file: 'banners.yaml', line: 1 },
      { kind: BANNER, action: 'delete', client: CLIENT, application: 'all', name: 'old-promo', id: 2, before: 'Sale!', reason: 'not-declared' },
    ]);

    const text = renderText(encodePlanBody(made));
    expect(text).toContain('+ banner blocked');
    expect(text).toContain('- banner old-promo #2');
    expect(text).toMatch(/2 to create, 0 to update, 1 to delete/);
    // The pull-request comment, from the document.
    expect(renderMarkdown(document)).toMatch(/banner blocked[\s\S]*banner old-promo #2/);

    const outcome = await apply(prepared);
    expect(outcome.result).toBe('applied');
    if (outcome.result !== 'applied') return;
    expect(outcome.report.settled).toBe(true);
    expect(account.service.all().map((b) => `${b.name}|${b.text}|${b.owner ?? '-'}`).sort()).toEqual(['blocked|Access denied|rampart', 'maintenance|Back soon|-']);
    expect(account.emulator.control.state().ipObjects.map((o) => [o.record.clientid, o.record.list, o.record.subnet])).toEqual([[CLIENT, 'black', '203.0.113.9/32']]);
    expect(written.filter((w) => w.kind === BANNER).map((w) => [w.action, w.name, w.cause, w.status])).toEqual([
      ['create', 'blocked', 'unknown', 'applied'],
      ['delete', 'old-promo', 'intent', 'applied'],
    ]);
    converged = outcome.declared;
    expect(converged.keys[BANNER as never]).toBeDefined();
  });

  it('converges: the next plan has nothing to do', async () => {
    const { plan: made } = await plan();
    expect(hasChanges(made)).toBe(false);
    expect(made.summary.unchanged).toBe(3);
  });

  it('tells drift from intent through the converged memory, and the digests see the class', async () => {
    const before = await plan();
    // Someone edits our banner by hand: the policies did not change, so the fix is drift.
    const ours = account.service.all().find((b) => b.name === 'blocked');
    if (!ours) throw new Error('the banner was not created');
    await account.service.update(ours.id, 'hacked');
    const drifted = await plan();
    expect(drifted.plan.liveDigest()).not.toBe(before.plan.liveDigest());
    expect(drifted.plan.desiredDigest()).toBe(before.plan.desiredDigest());
    expect(renderText(encodePlanBody(drifted.plan))).toContain('~ banner blocked #');
    const outcome = await apply(drifted, converged);
    expect(outcome.result).toBe('applied');
    expect(written.map((w) => [w.action, w.kind, w.cause])).toEqual([['update', BANNER, 'drift']]);

    // The policies change the text: intent.
    written.length = 0;
    account.banners = declared({ blocked: 'Access denied (code 42)', maintenance: 'Back soon' });
    const edited = await plan();
    expect(edited.plan.desiredDigest()).not.toBe(before.plan.desiredDigest());
    expect((await apply(edited, converged)).result).toBe('applied');
    expect(written.map((w) => [w.action, w.kind, w.cause])).toEqual([['update', BANNER, 'intent']]);
    expect(account.service.all().find((b) => b.name === 'blocked')?.text).toBe('Access denied (code 42)');
  });

  it('remembers its writes in the journal while its listing lags: no duplicate create', async () => {
    account.banners = declared({ blocked: 'Access denied (code 42)', maintenance: 'Back soon', welcome: 'Hello' });
    const journal = new WriteJournal();
    const events: string[] = [];
    journal.sink = (event) => events.push(event.kind);
    account.service.lag();
    expect((await apply(await plan(journal), converged, journal)).result).toBe('applied');
    expect(events).toEqual(['banner-created']);
    // The listing does not show the banner yet: without the journal the plan would make it again.
    expect((await plan()).plan.changes.map((c) => c.action)).toEqual(['create']);
    expect(hasChanges((await plan(journal)).plan)).toBe(false);
    expect(journal.events().map((e) => e.kind)).toEqual(['banner-created']);
    account.service.catchUp();
    expect(hasChanges((await plan(journal)).plan)).toBe(false);
    expect(journal.size).toBe(0);
    expect(account.service.all().filter((b) => b.name === 'welcome')).toHaveLength(1);
  });

  it('runs in a daemon cycle too: the journal, the churn breaker and the listing memory take it', async () => {
    account.banners = declared({ blocked: 'Access denied (code 42)', maintenance: 'Back soon', welcome: 'Hello', faq: 'See /faq' });
    const loaded = await loadPolicies(account.policies.dir);
    const snapshot = { policy: { ...loaded, desired: { ...loaded.desired, [BANNERS]: account.banners } as DesiredState, digest: 'with-faq' } };
    const journal = new WriteJournal();
    const cycle = (memory: CycleMemory) => runCycle({
      settings: { policies: account.policies.dir, api: account.api, settings: { ...runSettings(), settleTimeoutMs: 5_000 }, journal },
      context: { cycleId: '1-a', reasons: ['resync'], signal: new AbortController().signal, logger },
      snapshot,
    }, memory);
    const first = await cycle(FIRST_CYCLE);
    expect(first.outcome).toMatchObject({ result: 'success', changes: { create: 1 } });
    // What the read found before the write, for the next read to predict its pages.
    expect(first.memory.listed.get(listingKey(CLIENT, BANNERS))).toBe(3);
    expect(written.map((w) => [w.action, w.kind, w.name])).toEqual([['create', BANNER, 'faq']]);
    const second = await cycle(first.memory);
    expect(second.outcome.result).toBe('no-op');
  });

  it('never writes what it does not own: an unmanaged banner that differs blocks its declaration', async () => {
    account.banners = declared({ blocked: 'Access denied (code 42)', maintenance: 'Closed for good' });
    const calls = account.service.calls.length;
    await expect(plan()).rejects.toThrow(/banners\.yaml:2:3: banner maintenance \(client 10042\): an unmanaged banner #1 holds this declaration's key/);
    expect(account.service.calls.slice(calls).every((call) => call.startsWith('GET '))).toBe(true);
  });
});

describe('a third object class with only the core of each side', () => {
  const { account, plan, apply } = bannerAccount('core');

  it('plans, renders, applies and audits a banner; each layer passes over the capabilities it lacks', async () => {
    account.service.seed({ client: CLIENT, name: 'old-promo', text: 'Sale!', owner: 'rampart' });
    account.banners = declared({ blocked: 'Access denied' });
    const prepared = await plan();
    const { plan: made } = prepared;
    // No listing sizes: its listing is read without a size promised.
    expect(desiredListingSizes(prepared.desired).get(listingKey(CLIENT, BANNERS))).toBe(0);
    expect(made.changes.map((c) => `${c.action} ${c.kind}`)).toEqual(['create ip', 'create banner', 'delete banner']);
    // The mass-delete guard counts its delete (the core); the plan names no undeclared banner (a capability).
    expect(made.safety.ownedCount).toBe(1);
    expect(encodePlan(made).undeclared).toBeUndefined();
    expect(renderText(encodePlanBody(made))).toContain('- banner old-promo #');
    // No impact side: its changes are not evaluated, and say so.
    const impacts = evaluateChanges({ changes: made.changes, live: prepared.live, seen: new RequestIndex(), experimental: new RequestIndex() });
    expect(made.changes.filter((c) => (c.kind as string) === BANNER).map((c) => impacts.get(c)?.evaluable)).toEqual([false, false]);

    const outcome = await apply(prepared);
    expect(outcome.result).toBe('applied');
    if (outcome.result !== 'applied') return;
    // No listing check: apply does not wait for the banners' listing.
    expect(outcome.report.settled).toBe(true);
    // No converged memory: a create's cause cannot be told.
    expect(account.written.filter((w) => w.kind === BANNER).map((w) => [w.action, w.name, w.cause, w.status])).toEqual([
      ['create', 'blocked', 'unknown', 'applied'],
      ['delete', 'old-promo', 'intent', 'applied'],
    ]);
    const converged = await plan();
    expect(hasChanges(converged.plan)).toBe(false);
    // No export side: an export leaves its objects out, as no policy file can hold them.
    const exported = selectObjects(converged.live, { client: CLIENT, owner: 'rampart', excludeOwned: false, now: 0 });
    expect(exported.skipped.filter((s) => (s.kind as string) === BANNER).map((s) => s.reason)).toEqual(['unmappable']);
  });
});
