/** Why a rule is written, and what its audit record lists. */
import type { RuleChange } from '../../model/change.js';
import { ruleFingerprint } from '../../model/fingerprint.js';
import { conditionKey, fieldValues, plainRule, pointKey, sortConditions, type Rule } from '../../model/rule.js';
import { planClassOf } from '../../plan/classes/index.js';
import { ruleApplication } from '../../plan/objects.js';
import { remembered, type AuditClass } from './class.js';

export const RULE_AUDIT: AuditClass<RuleChange> = {
  subject(change) {
    const { rule } = change;
    if (change.action === 'delete') {
      const { name } = change.rule;
      return { client: rule.client, application: ruleApplication(rule), ...(name !== undefined ? { name } : {}) };
    }
    const { source } = change.rule;
    return { client: rule.client, application: ruleApplication(rule), name: source.name, file: source.file, line: source.line, col: source.col };
  },

  cause(change, context) {
    if (change.action === 'delete') {
      if (change.reason === 'replaced') return undefined;
      if (change.reason === 'duplicate') return 'drift';
      // Written from a declaration that is still there, yet not recognized: it was changed outside.
      const stored = context.rulesById.get(change.rule.id)?.fingerprint;
      return stored !== undefined && context.current.rules.has(stored) ? 'drift' : 'intent';
    }
    if (change.action === 'adopt') return 'intent';
    const fingerprint = ruleFingerprint(plainRule(change.rule));
    const written = change.action === 'update'
      ? [context.rulesById.get(change.live.id)?.fingerprint]
      : (change.replaces ?? []).flatMap((id) => context.rulesById.get(id)?.fingerprint ?? []);
    if (written.includes(fingerprint)) return 'drift';
    if (written.some((stored) => stored !== undefined)) return 'intent';
    return remembered((p) => p.rules.has(fingerprint), context.previous);
  },

  causeAfter(change, why, { plan }) {
    // A replaced rule goes for the reason its replacement comes.
    const id = change.action === 'delete' ? change.rule.id : undefined;
    const by = plan.changes.findIndex((c) => c.kind === change.kind && c.action === 'create' && id !== undefined && planClassOf(c).takesOver(c).includes(id));
    return why[by] ?? 'intent';
  },

  replacedFields(change, live) {
    if (change.action !== 'create' || !change.replaces?.length) return [];
    const old = live.rules.find((rule) => rule.id === change.replaces?.[0]);
    return old ? ruleDifferences(old, plainRule(change.rule)) : [];
  },

  listed(change, result) {
    const id = change.action === 'create' ? result.id : change.action === 'delete' ? change.rule.id : change.live.id;
    return id !== undefined ? { id } : {};
  },
};

/**
 * Policy-file names of what differs between two rules: `type`, `when`,
 * `point`, the kind's fields the new rule `to` writes (one it leaves out is
 * the service's), `comment`.
 */
function ruleDifferences(from: Rule, to: Rule): string[] {
  if (from.kind !== to.kind) return ['type'];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const a = fieldValues(from);
  const b = fieldValues(to);
  return [
    ...(same(sortConditions(from.conditions).map(conditionKey), sortConditions(to.conditions).map(conditionKey)) ? [] : ['when']),
    ...(same(from.point.map(pointKey), to.point.map(pointKey)) ? [] : ['point']),
    ...Object.keys(b).filter((name) => b[name] !== undefined).sort().filter((name) => !same(a[name], b[name])),
    ...((from.comment ?? '') === (to.comment ?? '') ? [] : ['comment']),
  ];
}
