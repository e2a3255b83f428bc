/** What the service stored of a rule differently from its declaration (rewrites.ts). */
import { sameValue, type FieldValue } from '../rules/field.js';
import { NONE, rewriteText, type FieldRewrite } from './rewrites.js';
import { conditionKey, fieldValues, kindOf, pointKey, type Condition, type Point, type Rule } from './rule.js';

export function formatPoint(point: Point): string {
  return `[${point.join(', ')}]`;
}

export function formatCondition(condition: Condition): string {
  const value = condition.value === null ? '' : ` ${JSON.stringify(condition.value)}`;
  return `${formatPoint(condition.point)} ${condition.type}${value}`;
}

/** Conditions are a set: only the ones on one side and not the other are shown. */
function conditionRewrite(declared: readonly Condition[], stored: readonly Condition[]): FieldRewrite | undefined {
  const storedKeys = new Set(stored.map(conditionKey));
  const declaredKeys = new Set(declared.map(conditionKey));
  const onlyDeclared = declared.filter((c) => !storedKeys.has(conditionKey(c)));
  const onlyStored = stored.filter((c) => !declaredKeys.has(conditionKey(c)));
  if (onlyDeclared.length === 0 && onlyStored.length === 0) return undefined;
  const list = (conditions: readonly Condition[]) => (conditions.length ? conditions.map(formatCondition).join('; ') : NONE);
  return { field: 'when', declared: list(onlyDeclared), stored: list(onlyStored) };
}

export function ruleRewrites(declared: Rule, stored: Rule): FieldRewrite[] {
  const out: FieldRewrite[] = [];
  const conditions = conditionRewrite(declared.conditions, stored.conditions);
  if (conditions) out.push(conditions);
  const points = (rule: Rule) => rule.point.map(pointKey).join(' ');
  if (points(declared) !== points(stored)) {
    const show = (rule: Rule) => (rule.point.length ? `[${rule.point.map(formatPoint).join(', ')}]` : NONE);
    out.push({ field: 'point', declared: show(declared), stored: show(stored) });
  }
  if (declared.kind !== stored.kind) out.push({ field: 'type', declared: declared.kind, stored: stored.kind });
  const a = fieldValues(declared);
  const b = fieldValues(stored);
  for (const field of kindOf(declared).fields) {
    const [x, y] = [a[field.name], b[field.name]];
    // A field the declaration leaves out is the service's: what it stored there is no rewrite.
    if (x === undefined || sameValue(x, y)) continue;
    const show = (value: FieldValue | undefined) => (value === undefined ? NONE : field.format(value as never));
    out.push({ field: field.name, declared: show(x), stored: show(y) });
  }
  if ((declared.comment ?? '') !== (stored.comment ?? '')) out.push({ field: 'comment', declared: rewriteText(declared.comment), stored: rewriteText(stored.comment) });
  return out;
}
