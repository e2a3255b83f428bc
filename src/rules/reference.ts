/**
 * The rule-kind part of docs/policy-reference.md, generated from the
 * registry: per kind, what it does, its API type, whether it takes a point,
 * whether the service keeps one per scope, its fields (API name, required,
 * values, default, updatable in place) and an example.
 */
import { InternalError } from '../errors.js';
import { Document, isMap, isScalar, isSeq, visit } from '../yaml-library.js';
import type { KindField, RuleKind } from './kind.js';
import { RULE_KINDS } from './registry.js';

export const BEGIN = '<!-- rule-kinds:begin (generated from src/rules by `npm run generate`; do not edit) -->';
export const END = '<!-- rule-kinds:end -->';

/** What a rule that leaves the field out gets: the service's value (named when known), or what the absence says. */
function leftOut(kind: RuleKind, field: KindField): string {
  if (field.required || field.local || kind.exactlyOne.includes(field.name)) return '';
  if (field.absentIs !== undefined) return `\`${JSON.stringify(field.absentIs)}\``;
  if (field.createDefault !== undefined && field.createDefault !== field.serviceDefault) {
    return `\`${JSON.stringify(field.createDefault)}\` on create (as the service's client sends), then the service's`;
  }
  return field.serviceDefault !== undefined ? `the service's (\`${JSON.stringify(field.serviceDefault)}\`)` : 'the service\'s';
}

const POINT: Record<RuleKind['point'], string> = { required: 'required', optional: 'optional', none: 'none' };

function kindSection(kind: RuleKind): string {
  const lines = [
    `### \`${kind.yaml}\``,
    '',
    kind.description,
    '',
    `API type \`${kind.api}\`${kind.variants.map((v) => ` (\`${v.api}\` with ${Object.entries(v.fields).map(([k, x]) => `\`${k}: ${String(x)}\``).join(', ')})`).join('')}; ` +
      `point: ${POINT[kind.point]}${kind.onePerScope ? '; one per scope (a second rule for the same conditions is an error)' : ''}.`,
    '',
  ];
  if (kind.fields.length > 0) {
    lines.push('| field | API name | required | values | left out | changed in place |', '|---|---|---|---|---|---|');
    for (const field of kind.fields) {
      lines.push(`| \`${field.name}\` | ${field.viaType ? '(the API type)' : `\`${field.api}\``} | ${field.required ? 'yes' : 'no'} | ${field.values} | ${leftOut(kind, field)} | ${field.updatable ? 'yes' : 'no (replaced)'} |`);
    }
    lines.push('', ...kind.fields.map((field) => `- \`${field.name}\`: ${field.description}`), ...kind.checks.map((check) => `- ${check.description}`), '');
  }
  const [example] = kind.examples;
  if (example) {
    lines.push('```yaml', exampleYaml({ name: `example-${kind.yaml.replace(/_/g, '-')}`, type: kind.yaml, ...example }), '```', '');
  }
  return lines.join('\n');
}

/**
 * A rule as a person writes it: points, conditions and small nested values in
 * flow style (`[[get, q]]`, `{ point: [uri], equal: /x }`, `{count: 20, period: 60}`);
 * a nested value holding objects stays in block style.
 */
function exampleYaml(rule: Record<string, unknown>): string {
  const doc = new Document([rule]);
  visit(doc, {
    Seq(_, node) {
      if (node.items.every((item) => isScalar(item) || (isSeq(item) && item.items.every(isScalar)))) node.flow = true;
    },
    Map(_, node, path) {
      const holdsObjects = node.items.some((pair) => isSeq(pair.value) ? pair.value.items.some(isMap) : isMap(pair.value));
      if (path.length > 3 && !holdsObjects) node.flow = true;
    },
  });
  return doc.toString({ flowCollectionPadding: false }).trimEnd();
}

export function ruleKindReference(): string {
  return (RULE_KINDS as readonly RuleKind[]).map(kindSection).join('\n');
}

/** `text` with the part between the markers replaced by `block`. */
export function replaceGeneratedBlock(text: string, block: string): string {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new InternalError(`the generated block markers are missing: ${BEGIN} … ${END}`);
  return `${text.slice(0, start + BEGIN.length)}\n\n${block}\n${text.slice(end)}`;
}

/** The block as it stands in `text`, for the staleness test. */
export function generatedBlock(text: string): string | undefined {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return start < 0 || end < start ? undefined : text.slice(start + BEGIN.length, end);
}
