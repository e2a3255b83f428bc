/** Why a rule is written, and what its audit record lists. */
import type { Change } from '../../model/change.js';
import type { RuleChange } from '../../model/rule-change.js';
import { onAction, type ByAction } from '../../model/by-action.js';
import type { DesiredRule } from '../../model/rule.js';
import type { ChangeResult } from '../change-result.js';
import type { WriteCause } from '../write-cause.js';
import { ruleFingerprint } from '../../model/rule-fingerprint.js';
import { conditionKey, fieldValues, plainRule, pointKey, sortConditions, type Rule } from '../../model/rule.js';
import { hasReplacements } from '../../plan/classes/class.js';
import { planClassOf } from '../../plan/classes/index.js';
import { ruleApplication } from '../../plan/classes/rule-document.js';
import { remembered, type BuiltInAuditClass, type CauseContext, type Subject } from './class.js';

/** Who and where, by action: a declared rule names its line; a deleted one the name its mark kept. */
const SUBJECT: ByAction<RuleChange, Subject> = {
  create: (change) => declared(change.rule),
  update: (change) => declared(change.rule),
  adopt: (change) => declared(change.rule),
  delete: ({ rule }) => ({ client: rule.client, application: ruleApplication(rule), ...(rule.name !== undefined ? { name: rule.name } : {}) }),
};

function declared(rule: DesiredRule): Subject {
  const { source } = rule;
  return { client: rule.client, application: ruleApplication(rule), name: source.name, file: source.file, line: source.line, col: source.col };
}

/** The fingerprints the live rules a create replaces or an update rewrites were written from. */
function writtenFrom(ids: readonly number[], context: CauseContext): (string | undefined)[] {
  return ids.map((id) => context.liveById.rule.get(id)?.[0]?.fingerprint);
}

/** Why a write of a declaration is made: the live copy's fingerprint says, or else the memory of a converged run. */
function declaredCause(rule: DesiredRule, written: readonly (string | undefined)[], context: CauseContext): WriteCause {
  const fingerprint = ruleFingerprint(plainRule(rule));
  if (written.includes(fingerprint)) return 'drift';
  if (written.some((stored) => stored !== undefined)) return 'intent';
  return remembered((p) => p.keys.rule.has(fingerprint), context.previous);
}

/** The audit record's id, by action: the new rule's (from the answer), or the live one's. */
const LISTED_ID: ByAction<RuleChange, (result: ChangeResult) => number | undefined> = {
  create: () => (result) => result.id,
  update: (change) => () => change.live.id,
  adopt: (change) => () => change.live.id,
  delete: (change) => () => change.rule.id,
};

export const RULE_AUDIT: BuiltInAuditClass<RuleChange, DesiredRule> = {
  declaredKey: (rule) => ruleFingerprint(rule),

  subject: (change) => onAction(change, SUBJECT),

  cause: (change, context) => onAction<RuleChange, WriteCause | undefined>(change, {
    create: (c) => declaredCause(c.rule, writtenFrom(c.replaces ?? [], context).filter((f) => f !== undefined), context),
    update: (c) => declaredCause(c.rule, writtenFrom([c.live.id], context), context),
    adopt: () => 'intent',
    delete(c) {
      if (c.reason === 'replaced') return undefined;
      if (c.reason === 'duplicate') return 'drift';
      // Written from a declaration that is still there, yet not recognized: it was changed outside.
      const stored = context.liveById.rule.get(c.rule.id)?.[0]?.fingerprint;
      return stored !== undefined && context.current.keys.rule.has(stored) ? 'drift' : 'intent';
    },
  }),

  causeAfter(change, why, { plan }) {
    // A replaced rule goes for the reason its replacement comes.
    const [id] = planClassOf(change).deletedIds(change);
    const replaces = (c: Change): boolean => {
      const planSide = planClassOf(c);
      return hasReplacements(planSide) && id !== undefined && planSide.takesOver(c).includes(id);
    };
    const by = plan.changes.findIndex((c) => c.kind === change.kind && replaces(c));
    return why[by] ?? 'intent';
  },

  replacedFields: (change, live) => onAction(change, {
    create(c) {
      const old = c.replaces?.length ? live.rules.find((rule) => rule.id === c.replaces?.[0]) : undefined;
      return old ? ruleDifferences(old, plainRule(c.rule)) : [];
    },
    update: () => [],
    adopt: () => [],
    delete: () => [],
  }),

  listed(change, result) {
    const id = onAction(change, LISTED_ID)(result);
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
