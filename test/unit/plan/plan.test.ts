import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from '../../../src/plan/canonical.js';
import { digestDesired, digestLive } from '../../../src/plan/digest.js';
import { encodePlan, encodePlanBody, planChecksum } from '../../../src/plan/codec.js';
import { showPlan } from '../../../src/reconcile/outcome.js';
import { collectGarbage } from '../../../src/garbage-collector.js';
import type { LiveState } from '../../../src/model/state.js';
import { buildPlan, restrictPlan } from '../../../src/plan/plan.js';
import { renderJson } from '../../../src/plan/render/json.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import { desiredIp, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields, shuffled } from './builders.js';
import { everyChange } from './scenario.js';
import { planDocument } from '../../helpers/plan-document.js';

describe('plan ordering', () => {
  const plan = planDocument(everyChange().desired, everyChange().live);

  it('puts every create before every update, and every update before every delete', () => {
    const actions = plan.changes.map((c) => c.action);
    expect(actions.lastIndexOf('create')).toBeLessThan(actions.indexOf('update'));
    expect(actions.lastIndexOf('update')).toBeLessThan(actions.indexOf('delete'));
    expect(actions.filter((a) => a === 'create')).toHaveLength(6);
    expect(actions.filter((a) => a === 'update')).toHaveLength(1);
  });

  it('sorts creates by client, kind (rules first), list, then source', () => {
    const creates = plan.changes.filter((c) => c.action === 'create');
    expect(creates.map((c) => [c.client, c.kind, c.kind === 'ip' ? c.object.list : '', c.line])).toEqual([
      [10042, 'rule', '', 8],
      [10042, 'ip', 'black', 30],
      [10042, 'ip', 'black', 30],
      [10042, 'ip', 'black', 33],
      [10042, 'ip', 'white', 36],
      [20001, 'ip', 'gray', 5],
    ]);
  });

  it('sorts deletes by client, rules by id, then one IP batch per client', () => {
    const deletes = plan.changes.filter((c) => c.action === 'delete');
    expect(deletes.map((c) => [c.client, c.kind, c.kind === 'rule' ? c.id : c.ids])).toEqual([
      [10042, 'rule', 550],
      [10042, 'rule', 552],
      [10042, 'rule', 554],
      [10042, 'ip', [991, 994]],
      [20001, 'ip', [996]],
    ]);
  });

  it('counts objects, calls, notes and owned objects', () => {
    expect(plan.summary).toEqual({ create: 4, update: 1, delete: 5, unchanged: 4, replace: 4, adopt: 0 });
    // The client's three rule deletes share one call.
    expect(plan.changes).toHaveLength(12);
    expect(plan.api_calls).toBe(10);
    expect(plan.notes.map((n) => [n.level, n.id])).toEqual([['warning', 993]]);
    expect(plan.unmanaged.map((u) => u.id)).toEqual([600]);
    expect(plan.safety).toEqual({
      ok: true, delete_count: 3, owned_count: 12, share: 3 / 12, threshold: 0.3, min_owned: 10,
    });
  });

  it('has the fields of the contract and nothing time-dependent', () => {
    expect(Object.keys(plan)).toEqual([
      'format_version', 'owner', 'summary', 'api_calls', 'safety', 'checksum', 'desired_digest', 'live_digest',
      'undeclared', 'changes', 'notes', 'unmanaged', 'left_unmanaged',
    ]);
    expect(plan.format_version).toBe(4);
    expect(plan.owner).toBe('rampart');
    expect(renderJson(plan)).toBe(renderJson(planDocument(everyChange().desired, everyChange().live)));
  });
});

describe('determinism', () => {
  it('gives a byte-identical plan for shuffled input', () => {
    const { desired, live } = everyChange();
    const reference = renderJson(planDocument(desired, live));
    for (const seed of [1, 2, 3, 42, 1234]) {
      const d = { ...desired, clients: shuffled(desired.clients, seed), rules: shuffled(desired.rules, seed), ipEntries: shuffled(desired.ipEntries, seed) };
      const l = { ...live, clients: shuffled(live.clients, seed), rules: shuffled(live.rules, seed + 1), ipEntries: shuffled(live.ipEntries, seed + 2) };
      expect(renderJson(planDocument(d, l))).toBe(reference);
    }
  });

  it('keeps the same copies of values held several times, whatever the input order', () => {
    // A is held by objects 1 (2 values) and 2 (3 values), B by 1 and 3 (2 values each). Keeping A in the
    // larger object 2 deletes object 1, which then makes B keep its copy in object 3. Chosen the other way
    // round (B first: object 1, the lower id), object 1 would hold B and go anyway: a forced create more.
    const [a, b, c, d, e] = ['10.0.1.0/24', '10.0.2.0/24', '10.0.3.0/24', '10.0.4.0/24', '10.0.5.0/24'];
    const values = [a, b, c, d, e] as string[];
    const live = liveState([], [...liveObject(1, [a, b] as string[]), ...liveObject(2, [a, c, d] as string[]), ...liveObject(3, [b, e] as string[])]);
    const expected = renderJson(planDocument(desiredState([], values.map((v, i) => desiredIp(v, {}, 10 + i))), live));
    const plan = JSON.parse(expected) as PlanDocument;
    expect(plan.changes.map((change) => [change.action, change.kind === 'ip' && change.action === 'delete' ? change.ids : []])).toEqual([['delete', [1]]]);
    for (const seed of [1, 2, 3, 42]) {
      const desired = desiredState([], shuffled(values, seed).map((v) => desiredIp(v, {}, 10 + values.indexOf(v))));
      expect(renderJson(planDocument(desired, { ...live, ipEntries: shuffled(live.ipEntries, seed) }))).toBe(expected);
    }
    expect(renderJson(planDocument(desiredState([], [...values].reverse().map((v) => desiredIp(v, {}, 10 + values.indexOf(v)))), live))).toBe(expected);
  });

  it('checksums the changes as values, whatever the order of their members', () => {
    const plan = planDocument(everyChange().desired, everyChange().live);
    expect(plan.checksum).toMatch(/^[0-9a-f]{32}$/);
    expect(planChecksum(plan.changes)).toBe(plan.checksum);
    // A plan read back from its JSON checks out the same, and so does one rewritten with its keys in another order.
    const reread = JSON.parse(renderJson(plan)) as typeof plan;
    expect(planChecksum(reread.changes)).toBe(plan.checksum);
    const reversed = JSON.parse(JSON.stringify(plan.changes), (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value) as typeof plan.changes;
    expect(Object.keys(reversed[0] ?? {})).toEqual(Object.keys(plan.changes[0] ?? {}).reverse());
    expect(planChecksum(reversed)).toBe(plan.checksum);
    // Any change removed, moved or edited shows.
    const [first, second, ...rest] = plan.changes;
    if (!first || !second) throw new Error('the scenario has changes');
    expect(planChecksum(plan.changes.slice(1))).not.toBe(plan.checksum);
    expect(planChecksum([second, first, ...rest])).not.toBe(plan.checksum);
    expect(planChecksum([{ ...first, client: first.client + 1 }, second, ...rest])).not.toBe(plan.checksum);
  });

  it('puts the checksum and digests in their place in the JSON; the body a text plan shows has none of them', () => {
    const plan = planDocument(everyChange().desired, everyChange().live);
    // The text plan and the daemon's cycles show the body, and never pay for them.
    expect(Object.keys(encodePlanBody(buildPlan(everyChange().desired, everyChange().live)))).not.toContain('checksum');
    const keys = Object.keys(JSON.parse(renderJson(plan)) as object);
    expect(keys.slice(keys.indexOf('safety'), keys.indexOf('safety') + 4)).toEqual(['safety', 'checksum', 'desired_digest', 'live_digest']);
    expect((JSON.parse(renderJson(plan)) as typeof plan).checksum).toBe(planChecksum(plan.changes));
    expect(plan.checksum).toBe(plan.checksum);
  });

  it('sorts object keys in canonical JSON and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 'x' }] })).toBe('{"a":[{"c":"x"}],"b":1}');
  });

  it('compares values as their canonical JSON would, without printing it', () => {
    const values: unknown[] = [
      null, undefined, Number.NaN, 0, -0, 1, '1', '', 'a', true, false, [], [null], [undefined], [1, 2], [2, 1], {}, { a: undefined },
      { a: null }, { a: 1 }, { a: '1' }, { b: 1 }, { a: 1, b: 2 }, { b: 2, a: 1 }, { a: [1, { c: 'x', d: undefined }] }, { a: [1, { c: 'x' }] },
      { toString: 1 }, [[]], [{}],
    ];
    for (const a of values) {
      for (const b of values) expect(sameJson(a, b), `${canonicalJson(a)} ${canonicalJson(b)}`).toBe(canonicalJson(a) === canonicalJson(b));
    }
    const plan = planDocument(everyChange().desired, everyChange().live);
    expect(sameJson(JSON.parse(renderJson(plan)), plan)).toBe(true);
  });
});

describe('digests', () => {
  const { desired, live } = everyChange();

  it('do not depend on order or source positions', () => {
    const moved = { ...desired, rules: shuffled(desired.rules).map((r) => ({ ...r, source: { ...r.source, line: r.source.line + 100 } })) };
    expect(digestDesired(moved)).toBe(digestDesired(desired));
    expect(digestLive({ ...live, ipEntries: shuffled(live.ipEntries, 7) })).toBe(digestLive(live));
  });

  it('change with any object, attribute, id or owner', () => {
    const rule = desired.rules[0];
    if (!rule) throw new Error('scenario has rules');
    expect(digestDesired({ ...desired, rules: [{ ...rule, comment: 'x' }, ...desired.rules.slice(1)] })).not.toBe(digestDesired(desired));
    expect(digestDesired({ ...desired, ipEntries: desired.ipEntries.slice(1) })).not.toBe(digestDesired(desired));
    const [first, ...rest] = live.rules;
    if (!first) throw new Error('scenario has live rules');
    expect(digestLive({ ...live, rules: [{ ...first, id: 1 }, ...rest] })).not.toBe(digestLive(live));
    expect(digestLive({ ...live, rules: [{ ...first, owner: 'x' }, ...rest] })).not.toBe(digestLive(live));
    expect(digestDesired(desired)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('count an object held twice (a sum of hashes, not an xor that would cancel it)', () => {
    const [rule] = desired.rules;
    const [entry] = live.ipEntries;
    if (!rule || !entry) throw new Error('scenario has rules and live entries');
    expect(digestDesired({ ...desired, rules: [rule, ...desired.rules] })).not.toBe(digestDesired(desired));
    const twice = { ...live, ipEntries: [entry, entry, ...live.ipEntries] };
    expect(digestLive(twice)).not.toBe(digestLive(live));
    expect(digestLive(twice)).not.toBe(digestLive({ ...live, ipEntries: [entry, ...live.ipEntries] }));
  });

  it('are recorded in the plan', () => {
    const plan = planDocument(desired, live);
    expect(plan.desired_digest).toBe(digestDesired(desired));
    expect(plan.live_digest).toBe(digestLive(live));
  });

  /** The states, counting each read of their IP entries (a digest reads every object once). */
  const counted = <S extends { readonly ipEntries: readonly unknown[] }>(state: S, side: 'desired' | 'live', reads: Record<'desired' | 'live', number>): S =>
    Object.defineProperty({ ...state }, 'ipEntries', { get: () => (reads[side]++, state.ipEntries) });

  it('are memoised methods, computed when first asked and once, shared by a restricted plan (a text plan and a daemon cycle never ask)', () => {
    const reads = { desired: 0, live: 0 };
    const plan = buildPlan(counted(desired, 'desired', reads), counted(live, 'live', reads));
    const restricted = restrictPlan(plan, (change) => (change.action === 'delete' ? undefined : change));
    const planned = { ...reads };
    expect(restricted.changes.length).toBeLessThan(plan.changes.length);
    expect(encodePlanBody(restricted).changes).toHaveLength(restricted.changes.length);
    // Neither building, restricting nor the body (a text plan's) computes them.
    expect(reads).toEqual(planned);
    expect([plan.desiredDigest(), plan.liveDigest()]).toEqual([digestDesired(desired), digestLive(live)]);
    expect([restricted.desiredDigest(), restricted.liveDigest(), plan.desiredDigest()]).toEqual([digestDesired(desired), digestLive(live), digestDesired(desired)]);
    expect(reads).toEqual({ desired: planned.desired + 1, live: planned.live + 1 });
  });

  it('in the plan a daemon cycle keeps: the live one at once, so it holds no live state; the desired one when `/plan` asks', () => {
    const reads = { desired: 0, live: 0 };
    const plan = buildPlan(counted(desired, 'desired', reads), counted(live, 'live', reads));
    const planned = { ...reads };
    const shown = showPlan(plan);
    expect(reads).toEqual({ desired: planned.desired, live: planned.live + 1 });
    expect(shown.body).not.toHaveProperty('checksum');
    const document = shown.document();
    expect([document.desired_digest, document.live_digest]).toEqual([digestDesired(desired), digestLive(live)]);
    expect(shown.document()).toBe(document);
    expect(reads).toEqual({ desired: planned.desired + 1, live: planned.live + 1 });
  });

  it('in the plan a daemon cycle keeps, the desired digest not asked for yet does not keep the live state alive', async () => {
    const kept = (() => {
      const state: LiveState = { ...live };
      return { ref: new WeakRef(state), shown: showPlan(buildPlan(desired, state)) };
    })();
    // A WeakRef holds its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(collectGarbage()).toBe(true);
    expect(kept.ref.deref()).toBeUndefined();
    expect(kept.shown.document().desired_digest).toBe(digestDesired(desired));
  });

  it('the document is plain data: no getters, the same JSON twice', () => {
    const document = encodePlan(buildPlan(desired, live));
    const getters = Object.entries(Object.getOwnPropertyDescriptors(document)).filter(([, d]) => d.get !== undefined).map(([k]) => k);
    expect(getters).toEqual([]);
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('a saved plan carries full objects', () => {
  it('holds the rule and the IP entries as they will be written', () => {
    const rule = { ...ruleFields('regex'), comment: 'c' };
    const plan = planDocument(desiredState([desiredRule(rule)], []), liveState());
    const change = plan.changes[0];
    if (change?.kind !== 'rule' || change.action !== 'create') throw new Error('expected a rule create');
    expect(change.rule).toMatchObject({ type: 'regex', api_type: 'regex', fields: rule.fields, comment: 'c' });

    const ipPlan = planDocument(desiredState(), liveState([], liveObject(3, ['KP', 'RU'], { ruleType: 'country', reason: 'r' })));
    const del = ipPlan.changes[0];
    if (del?.kind !== 'ip' || del.action !== 'delete') throw new Error('expected an IP delete');
    expect(del.objects[0]!.object).toMatchObject({ rule_type: 'country', reason: 'r', values: ['KP', 'RU'] });
  });

  it('reports no changes for an account in step', () => {
    const rule = ruleFields('vpatch');
    const plan = planDocument(desiredState([desiredRule(rule)]), liveState([liveRule(rule, 1)]));
    expect(plan.changes).toEqual([]);
    expect(plan.api_calls).toBe(0);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 1, replace: 0, adopt: 0 });
  });
});
