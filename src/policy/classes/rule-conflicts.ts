/**
 * Rules across all files: one identity (ruleKey: kind, conditions, point,
 * fields that cannot change in place) is one rule. The same rule twice, or
 * two rules of a one-per-scope kind (two modes) for the same traffic.
 */
import type { Diagnostic } from '../../diagnostic.js';
import { ruleRewrites } from '../../model/rule-rewrites.js';
import { kindOf, ruleKey, type DesiredRule } from '../../model/rule.js';
import { Findings, where } from '../findings.js';

export function ruleConflicts(rules: readonly DesiredRule[]): Diagnostic[] {
  const findings = new Findings();
  const byKey = new Map<string, DesiredRule>();
  for (const rule of rules) {
    const key = ruleKey(rule);
    const first = byKey.get(key);
    if (!first) {
      byKey.set(key, rule);
      continue;
    }
    const differences = ruleRewrites(first, rule).filter((r) => r.field !== 'comment');
    const values = differences.map((d) => `${d.field} ${d.stored} here, ${d.declared} there`).join('; ');
    if (differences.length === 0) {
      findings.add('error', 'duplicate-rule', rule.source, `rule "${rule.source.name}" declares the same rule as "${first.source.name}" at ${where(first.source)}`);
    } else if (kindOf(rule).onePerScope) {
      findings.add('error', 'scope-conflict', rule.source, `"${rule.source.name}" is a second ${rule.kind} rule for the same traffic as "${first.source.name}" at ${where(first.source)} (${values}); the service keeps one per scope: keep one`);
    } else {
      findings.add('error', 'duplicate-rule', rule.source, `rule "${rule.source.name}" is the same rule as "${first.source.name}" at ${where(first.source)} with other values (${values}): keep one`);
    }
  }
  return findings.diagnostics;
}
