/**
 * Rules as written → canonical DesiredRules, one per application, with the
 * checks the schema cannot express (point shapes, operators, regexes,
 * condition limits, duplicate names).
 */
import { canonicalCondition, isHostEqual } from '../../model/canonical.js';
import { ALL_APPLICATIONS_POOL } from '../../model/application.js';
import { conditionKey, sortConditions, type Condition, type DesiredRule, type Point, type Rule } from '../../model/rule.js';
import type { FieldValue } from '../../rules/field.js';
import type { RuleKind } from '../../rules/kind.js';
import { isKindName, referencesOf, ruleKind } from '../../rules/registry.js';
import type { DocumentContext } from '../context.js';
import { OWNER_MARK_PATTERN, type ConditionSpec, type PolicyDocument, type RuleSpec } from '../document.js';
import { checkPoint } from '../points.js';
import { didYouMean } from '../../grammar/suggest.js';
import { regexProblem, REGEX_DIALECT } from '../../grammar/regex.js';
import { urlScope, type UrlCondition } from '../url-scope.js';
import { warnOnLoosePathChain } from './path-chain.js';
import { isRecord } from '../schema-messages.js';
import type { Path } from '../source-map.js';

/** The service's limit, counting the instance condition `application` adds. */
export const MAX_CONDITIONS = 60;
const OPERATORS = ['equal', 'iequal', 'regex', 'absent'] as const;

type RuleContent = Pick<Rule, 'kind' | 'fields' | 'point'> & { readonly comment?: string };

export function compileRules(doc: PolicyDocument, ctx: DocumentContext): DesiredRule[] {
  const out: DesiredRule[] = [];
  if (doc.mode !== undefined && ctx.clean(['mode'])) {
    const content = { kind: 'mode', fields: { mode: doc.mode }, point: [] } as RuleContent;
    out.push(...expand(ctx, content, [], ctx.report.source(['mode'], 'mode', { atKey: true })));
  }
  const names = new Map<string, number>();
  const specs: readonly RuleSpec[] = Array.isArray(doc.rules) ? doc.rules : [];
  // A reference (`regex_rule`) names a rule of this file, which may come later in the file.
  const namesOfKind = (kind: string) => specs.flatMap((r) => (isRecord(r) && r.type === kind && typeof r.name === 'string' ? [r.name] : []));
  specs.forEach((rule, index) => {
    const path: Path = ['rules', index];
    const references = isRecord(rule) && typeof rule.type === 'string' && isKindName(rule.type) ? referencesOf(rule.type, rule) : [];
    const dangling = references.find((reference) => !namesOfKind(reference.kind).includes(reference.name));
    if (dangling) {
      const { field, kind, name } = dangling;
      ctx.report.error(`unknown-${kind}-rule`, `${field} "${name}" names no ${kind} rule of this file${didYouMean(name, namesOfKind(kind))}`, [...path, field]);
      return;
    }
    if (isRecord(rule) && typeof rule.name === 'string') {
      const first = names.get(rule.name);
      if (first !== undefined) {
        const line = ctx.report.position(['rules', first]).line;
        ctx.report.error('duplicate-rule-name', `rule name "${rule.name}" is already used in this file (line ${line}); names are unique per file`, [...path, 'name']);
      } else names.set(rule.name, index);
    }
    if (!ctx.clean(path)) return;
    out.push(...compileRule(rule, path, ctx));
  });
  return out;
}

/** A schema-valid rule → its canonical content: the fields it writes, checked points, conditions. */
function compileRule(rule: RuleSpec, path: Path, ctx: DocumentContext): DesiredRule[] {
  const { report } = ctx;
  const kind = ruleKind(rule.type);
  let ok = true;
  const points: Point[] = [];
  (kind.point === 'none' ? [] : rule.point ?? []).forEach((spec, i) => {
    const point = checkPoint(spec, 'rule', [...path, 'point', i], report);
    if (point) points.push(point);
    else ok = false;
  });
  const fields: Record<string, FieldValue> = {};
  const { written, keyOf, renameErrors } = readRenamedKeys(kind, rule, path, ctx);
  if (renameErrors) ok = false;
  const problems = [
    ...kind.fields.flatMap((field) => (written[field.name] === undefined ? [] : field.problems(written[field.name]).map((p) => ({ ...p, at: [keyOf(field.name), ...p.at] })))),
    ...kind.checks.flatMap((check) => check.problems(written)),
  ];
  for (const problem of problems) report.error(problem.code, problem.message, [...path, ...problem.at], { atKey: problem.atKey ?? false });
  if (problems.length > 0) ok = false;
  for (const field of kind.fields) {
    // A field left out is the service's: not part of the declaration (unless leaving it out says something).
    const value = written[field.name] === undefined ? field.absentIs : field.canonical(written[field.name]);
    // Text values one copy per document: `attack: any` or `mode: block` repeat on thousands of rules.
    if (value !== undefined) fields[field.name] = typeof value === 'string' ? ctx.intern.string(value) : value;
  }
  if (rule.comment !== undefined && OWNER_MARK_PATTERN.test(rule.comment)) {
    report.error('reserved-mark', 'comment must not contain "[managed-by:": Rampart writes that mark itself', [...path, 'comment']);
    ok = false;
  }
  const conditions = compileConditions(rule.when ?? [], [...path, 'when'], ctx);
  if (!conditions) ok = false;
  const instanceCount = Array.isArray(ctx.applications) ? 1 : 0;
  const total = (rule.when?.length ?? 0) + instanceCount;
  if (total > MAX_CONDITIONS) {
    report.error('too-many-conditions', `rule "${rule.name}" has ${total} conditions${instanceCount ? ' (counting the application\'s instance condition)' : ''}; the service allows at most ${MAX_CONDITIONS}`, [...path, 'when'], { atKey: true });
    ok = false;
  }
  if (!ok || !conditions) return [];
  const content = {
    kind: kind.yaml, fields, point: ctx.intern.pointList(points),
    ...(rule.comment !== undefined ? { comment: ctx.intern.string(rule.comment) } : {}),
  } as RuleContent;
  return expand(ctx, content, conditions, report.source(path, rule.name));
}

/**
 * The rule with each renamed key read as its new name (RuleKindSpec.renamed),
 * a warning at each old key, an error where both are written; `keyOf` gives
 * the key as written, for messages.
 */
function readRenamedKeys(kind: RuleKind, rule: RuleSpec, path: Path, ctx: DocumentContext) {
  const written: Record<string, unknown> = { ...(rule as Readonly<Record<string, unknown>>) };
  const asWritten = new Map<string, string>();
  let renameErrors = false;
  for (const [old, name] of Object.entries(kind.renamed)) {
    if (written[old] === undefined) continue;
    if (written[name] !== undefined) {
      ctx.report.error('renamed-key-twice', `${old} is the old name of ${name}: write only ${name}`, [...path, old], { atKey: true });
      renameErrors = true;
      continue;
    }
    ctx.report.warning('renamed-key', `${old} is renamed ${name} (${kind.yaml}); it is read as ${name} for this release. \`rampart fmt\` rewrites it`, [...path, old], { atKey: true });
    written[name] = written[old];
    delete written[old];
    asWritten.set(name, old);
  }
  return { written, keyOf: (name: string) => asWritten.get(name) ?? name, renameErrors };
}

/** One rule per application, each with its instance condition. */
function expand(
  ctx: DocumentContext,
  base: RuleContent,
  conditions: readonly Condition[],
  source: DesiredRule['source'],
): DesiredRule[] {
  const { client, applications } = ctx;
  if (client === undefined || applications === undefined) return [];
  const apps = applications === 'all' ? [ALL_APPLICATIONS_POOL] : applications;
  return apps.map((app) => {
    const instance: Condition[] = app === ALL_APPLICATIONS_POOL ? [] : [ctx.intern.condition({ point: ['instance'], type: 'equal', value: String(app) })];
    const all = sortConditions([...instance, ...conditions]);
    // One literal per shape, members in the order a spread of `base` gave them (plans print rules in it), and
    // no spread: the members after one went to a separate array (2 MB at 50,000 rules).
    const { kind, fields, point, comment } = base;
    return (comment === undefined
      ? { client, kind, fields, point, conditions: all, source }
      : { client, kind, fields, point, comment, conditions: all, source }) as DesiredRule;
  });
}

function compileConditions(specs: readonly ConditionSpec[], path: Path, ctx: DocumentContext): Condition[] | undefined {
  const { report } = ctx;
  const out: Condition[] = [];
  const seen = new Map<string, number>();
  let ok = true;
  let uri: number | undefined;
  let pathIndex: number | undefined;
  const add = (condition: Condition, at: Path): void => {
    const key = conditionKey(condition);
    const first = seen.get(key);
    if (first !== undefined) {
      report.error('duplicate-condition', `the same condition is already written at when[${first}]`, at);
      ok = false;
    } else seen.set(key, Number(at[at.length - 1]));
    out.push(ctx.intern.condition(condition));
  };
  specs.forEach((spec, i) => {
    const at: Path = [...path, i];
    if (spec.url !== undefined) {
      const expanded = expandUrl(spec, at, report);
      if (!expanded) ok = false;
      for (const condition of expanded ?? []) {
        if (condition.point[0] === 'path') pathIndex ??= i;
        add(canonicalCondition(condition), at);
      }
      return;
    }
    const present = OPERATORS.filter((op) => spec[op] !== undefined);
    if (present.length !== 1) {
      const found = present.length === 0 ? 'none' : present.join(', ');
      report.error('condition-operator', `a condition needs exactly one of equal, iequal, regex, absent: true (found: ${found})`, at);
      ok = false;
    }
    if (spec.point === undefined) {
      report.error('missing-key', 'a condition needs a point (or a url)', at);
      ok = false;
      return;
    }
    const point = checkPoint(spec.point, 'condition', [...at, 'point'], report);
    if (!point) ok = false;
    else if (point[0] === 'instance') {
      report.error('instance-condition', 'the [instance] condition comes from "application"; do not write it in "when"', [...at, 'point']);
      ok = false;
    } else if (point[0] === 'uri') uri ??= i;
    else if (point[0] === 'path') pathIndex ??= i;
    if (spec.regex !== undefined) {
      const problem = regexProblem(spec.regex);
      if (problem) {
        report.error('invalid-regex', `regex does not compile (${REGEX_DIALECT}): ${problem}`, [...at, 'regex']);
        ok = false;
      }
    }
    const op = present[0];
    if (!point || present.length !== 1 || op === undefined) return;
    const raw = op === 'absent' ? null : (spec[op] as string);
    const condition = canonicalCondition({ point, type: op, value: raw });
    if (isHostEqual(point, op)) {
      report.warning('host-equal', `the service stores "equal" on [header, HOST] as "iequal" (host names are case-insensitive); write iequal: ${JSON.stringify(condition.value)} to say what is stored`, [...at, 'equal']);
    }
    add(condition, at);
  });
  if (uri !== undefined && pathIndex !== undefined) {
    report.error('uri-with-path', 'a rule cannot combine a [uri] condition with [path, N] conditions; use one or the other', [...path, Math.max(uri, pathIndex)]);
    ok = false;
  }
  if (ok) warnOnLoosePathChain(specs, out, path, report);
  return ok ? out : undefined;
}

/** A `url` item's conditions, or undefined (reported) when it is not one. */
function expandUrl(spec: ConditionSpec, at: Path, report: DocumentContext['report']): readonly UrlCondition[] | undefined {
  if (spec.point !== undefined || OPERATORS.some((op) => spec[op] !== undefined)) {
    report.error('condition-operator', 'a url condition stands alone: write the url, or a point with one of equal, iequal, regex, absent: true', at);
    return undefined;
  }
  const scope = urlScope(spec.url as string);
  if (!scope.ok) {
    report.error('invalid-url', scope.message, [...at, 'url']);
    return undefined;
  }
  for (const warning of scope.warnings) report.warning('url-pattern', warning, [...at, 'url']);
  return scope.conditions;
}
