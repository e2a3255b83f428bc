import { describe, expect, it } from 'vitest';
import { declaredFingerprints, explainChanges } from '../../../src/audit/cause.js';
import type { DeclaredFingerprints } from '../../../src/audit/declared-fingerprints.js';
import { ipFingerprint } from '../../../src/model/ip-fingerprint.js';
import { ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import type { LiveState, DesiredState } from '../../../src/model/state.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { digestDesired } from '../../../src/plan/digest.js';
import {
  desiredIp, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields,
} from '../plan/builders.js';

function explain(desired: DesiredState, live: LiveState, previous?: DeclaredFingerprints, adopt = false) {
  const plan = buildPlan(desired, live, { adopt });
  const why = explainChanges(plan, live, declaredFingerprints(desired, digestDesired(desired)), previous);
  return plan.changes.map((change, i) => ({ action: change.action, kind: change.kind, ...why[i] }));
}

const remember = (desired: DesiredState) => declaredFingerprints(desired, digestDesired(desired));

describe('explainChanges: drift or intent', () => {
  const regex = desiredRule(ruleFields('regex'), 'scanner');
  const vpatch = desiredRule(ruleFields('vpatch'), 'admin');

  it('a plain create: unknown without memory; drift when the last converged cycle declared it; intent when it is new', () => {
    const desired = desiredState([regex, vpatch]);
    const live = liveState([{ ...liveRule(vpatch, 1), fingerprint: ruleFingerprint(vpatch) }]);
    expect(explain(desired, live)).toEqual([{ action: 'create', kind: 'rule', cause: 'unknown' }]);
    // Same policies as the last converged cycle: whatever is written repairs drift.
    expect(explain(desired, live, remember(desired))).toEqual([{ action: 'create', kind: 'rule', cause: 'drift' }]);
    // Other policies then, but this rule was among them: its copy vanished.
    const before = desiredState([regex]);
    expect(explain(desired, live, remember(before))[0]?.cause).toBe('drift');
    // Not declared then: the policies changed.
    const older = desiredState([vpatch]);
    expect(explain(desired, live, remember(older))[0]?.cause).toBe('intent');
  });

  it('an update of a rule written from another declaration is intent, whatever the memory says', () => {
    const old = desiredRule({ ...ruleFields('regex'), comment: 'before' }, 'scanner');
    const now = desiredRule({ ...ruleFields('regex'), comment: 'after' }, 'scanner');
    const live = liveState([{ ...liveRule(old, 5), fingerprint: ruleFingerprint(old), name: 'scanner' }]);
    const why = explain(desiredState([now]), live);
    expect(why).toEqual([{ action: 'update', kind: 'rule', cause: 'intent' }]);
  });

  it('an update of a rule whose mark has no fingerprint falls back to memory', () => {
    const changed = desiredRule({ ...ruleFields('regex'), comment: 'edited' }, 'scanner');
    const live = liveState([liveRule(regex, 5)]);
    const desired = desiredState([changed]);
    expect(explain(desired, live)[0]).toMatchObject({ action: 'update', cause: 'unknown' });
    // The declaration was the same last time: someone edited the rule.
    expect(explain(desired, live, remember(desiredState([changed, vpatch])))[0]?.cause).toBe('drift');
  });

  it('a replacement follows its declaration: the old copy carries another fingerprint, so both writes are intent', () => {
    const old = desiredRule(ruleFields('vpatch', 7, '-OLD'), 'admin');
    const live = liveState([{ ...liveRule(old, 9), fingerprint: ruleFingerprint(old), name: 'admin' }]);
    const why = explain(desiredState([vpatch]), live);
    expect(why).toEqual([
      { action: 'create', kind: 'rule', cause: 'intent', fields: ['point'] },
      { action: 'delete', kind: 'rule', cause: 'intent' },
    ]);
  });

  it('a second copy of a declared rule is drift; an owned rule no longer declared is intent', () => {
    const fingerprint = ruleFingerprint(regex);
    const live = liveState([
      { ...liveRule(regex, 1), fingerprint },
      { ...liveRule(regex, 2), fingerprint },
      { ...liveRule(vpatch, 3), fingerprint: ruleFingerprint(vpatch) },
    ]);
    const why = explain(desiredState([regex]), live);
    expect(why.map((w) => [w.action, w.cause])).toEqual([['delete', 'drift'], ['delete', 'intent']]);
  });

  it('IP lists: a removed entry is intent; a changed expiry is intent with the field named; a vanished one is drift by memory', () => {
    const kept = desiredIp('203.0.113.0/24');
    const old = liveObject(40, ['198.51.100.7/32']).map((e) => ({ ...e, fingerprint: ipFingerprint(e) }));
    const keptLive = liveObject(41, ['203.0.113.0/24']).map((e) => ({ ...e, fingerprint: ipFingerprint(e) }));
    expect(explain(desiredState([], [kept]), liveState([], [...keptLive, ...old])).map((w) => [w.action, w.cause])).toEqual([['delete', 'intent']]);

    const later = desiredIp('203.0.113.0/24', { expiresAt: 2_000_000_000 });
    const changed = explain(desiredState([], [later]), liveState([], keptLive));
    expect(changed[0]).toEqual({ action: 'create', kind: 'ip', cause: 'intent', fields: ['expires'] });

    const desired = desiredState([], [kept]);
    expect(explain(desired, liveState([], []), remember(desired))[0]?.cause).toBe('drift');
    expect(explain(desired, liveState([], []), remember(desiredState([], [later])))[0]?.cause).toBe('intent');
  });

  it('an adoption is intent, even with the policies unchanged: it is asked for', () => {
    const desired = desiredState([regex]);
    const why = explain(desired, liveState([liveRule(regex, 8, null)]), remember(desired), true);
    expect(why).toEqual([{ action: 'adopt', kind: 'rule', cause: 'intent' }]);
  });
});
