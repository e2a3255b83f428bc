/** Plan blocks of rule changes: one per rule, old → new attributes side by side. */
import type { PlanRuleChange } from '../classes/rules.js';
import type { PlanDeleteRule, PlanRule } from '../types.js';
import { compareAttributes, ruleAttributes } from './attributes.js';
import { ids, type ChangeBlock } from './blocks.js';

function ruleTitle(name: string | undefined, id: number | undefined, rule: PlanRule): string {
  const parts = ['rule', ...(name !== undefined ? [name] : []), ...(id !== undefined ? [`#${id}`] : [])];
  return `${parts.join(' ')} (${rule.kind})`;
}

/** One block per rule change; a replaced rule's delete is folded into its replacement's create. */
export function ruleBlocks(changes: readonly PlanRuleChange[]): ChangeBlock[] {
  const replaced = new Map<number, PlanDeleteRule>();
  for (const c of changes) if (c.action === 'delete' && c.reason === 'replaced') replaced.set(c.id, c);
  const folded = new Set<number>();
  const out: ChangeBlock[] = [];
  for (const c of changes) {
    const base = { kind: 'rule', client: c.client, application: c.application, ...(c.impact ? { impact: c.impact } : {}) } as const;
    if (c.action === 'create') {
      const old = (c.replaces ?? []).map((id) => replaced.get(id)).find((d) => d !== undefined);
      for (const id of c.replaces ?? []) if (replaced.has(id)) folded.add(id);
      const replacing = (c.replaces?.length ?? 0) > 0;
      const order = c.delete_first ? ', deleted first (the service keeps one per scope)' : ', deleted after the create';
      out.push({
        ...base, action: replacing ? 'replace' : 'create', sign: replacing ? '-/+' : '+',
        title: ruleTitle(c.name, undefined, c.rule),
        detail: replacing ? [`replaces ${ids(c.replaces ?? [])}${order}`] : [],
        sources: [{ file: c.file, line: c.line, col: c.col }],
        attributes: compareAttributes(ruleAttributes(c.rule), old ? ruleAttributes(old.rule, c.rule) : undefined),
        count: 1,
      });
    } else if (c.action === 'adopt') {
      out.push({
        ...base, action: 'adopt', sign: '@', title: ruleTitle(c.name, c.id, c.rule), detail: ['owner mark added'],
        sources: [{ file: c.file, line: c.line, col: c.col }],
        attributes: compareAttributes(ruleAttributes(c.rule), ruleAttributes(c.before, c.rule)),
        count: 1,
      });
    } else if (c.action === 'update') {
      out.push({
        ...base, action: 'update', sign: '~', title: ruleTitle(c.name, c.id, c.rule), detail: [],
        sources: [{ file: c.file, line: c.line, col: c.col }],
        attributes: compareAttributes(ruleAttributes(c.rule), ruleAttributes(c.before, c.rule)),
        count: 1,
      });
    }
  }
  for (const c of changes) {
    if (c.action !== 'delete' || folded.has(c.id)) continue;
    out.push({
      kind: 'rule', client: c.client, application: c.application, action: 'delete', sign: '-', ...(c.impact ? { impact: c.impact } : {}),
      title: ruleTitle(c.name, c.id, c.rule), detail: [c.reason], sources: [],
      attributes: compareAttributes(ruleAttributes(c.rule)),
      count: c.reason === 'replaced' ? 0 : 1,
    });
  }
  return out;
}
