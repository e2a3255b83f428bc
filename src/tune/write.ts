/**
 * Adding the proposed rules to policy files, keeping everything else as
 * written: spliced in as text after the last rule (addRules says how), so
 * comments, key order and layout stay byte for byte. Each rule carries a
 * comment naming the request it was tuned from and the day. Pure: text in,
 * text out; the command validates the result before it writes anything.
 */
import { InternalError } from '../errors.js';
import type { Document } from 'yaml';
import { isNode, isSeq, parseDocument, stringify } from '../yaml-library.js';
import { padFlowMaps } from '../policy/flow-layout.js';

export interface RuleToAdd {
  readonly name: string;
  readonly written: Readonly<Record<string, unknown>>;
  /** `tune: request e3b0… (2026-11-24)`. */
  readonly comment: string;
}

/**
 * The file's text with the rules appended to its `rules`. Where the file has
 * a block list of rules, the new ones are spliced in as text after its last
 * item, at its indentation: every other byte stays as it was. Otherwise (no
 * rules yet, or a flow list) the document is edited and written again.
 */
export function addRules(text: string, rules: readonly RuleToAdd[]): string {
  const doc = parseDocument(text);
  const list = doc.get('rules', true);
  const first = isSeq(list) && !list.flow ? list.items[0] : undefined;
  const last = isSeq(list) && !list.flow ? list.items[list.items.length - 1] : undefined;
  if (isNode(first) && isNode(last) && first.range && last.range) {
    const lineStart = text.lastIndexOf('\n', first.range[0] - 1) + 1;
    const indent = text.slice(lineStart, first.range[0]).indexOf('-');
    const lineEnd = text.indexOf('\n', Math.max(last.range[1] - 1, 0));
    const at = lineEnd < 0 ? text.length : lineEnd + 1;
    const block = ruleBlock(rules).split('\n').map((line) => (line === '' ? line : `${' '.repeat(Math.max(indent, 0))}${line.slice(2)}`)).join('\n');
    return `${text.slice(0, at)}${lineEnd < 0 ? '\n' : ''}${block}${text.slice(at)}`;
  }
  if (!isSeq(list)) doc.set('rules', doc.createNode([]));
  const seq = doc.get('rules', true);
  if (!isSeq(seq)) throw new InternalError('rules is not a list after it was set');
  for (const rule of rules) seq.items.push(ruleNode(doc, rule));
  return padFlowMaps(doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
}

/** The rules as the items of a block list indented by two, as `tune` prints them. */
export function ruleBlock(rules: readonly RuleToAdd[]): string {
  const doc = parseDocument('rules:\n');
  doc.set('rules', doc.createNode([]));
  const seq = doc.get('rules', true);
  if (!isSeq(seq)) throw new InternalError('rules is not a list after it was set');
  for (const rule of rules) seq.items.push(ruleNode(doc, rule));
  return padFlowMaps(doc.toString({ lineWidth: 0, flowCollectionPadding: false })).replace(/^rules:\n/, '');
}

/** A new policy file for a client and application that no file declares yet. */
export function newPolicyFile(client: number, application: number, rules: readonly RuleToAdd[]): string {
  const head = [
    `# False-positive tuning for ${application > 0 ? `application ${application}` : 'the default application'} of account ${client},`,
    '# written by `rampart tune`: review it like any other change.',
    stringify({ version: 1, client, application: application > 0 ? application : 'all' }, { lineWidth: 0 }),
  ].join('\n');
  // A block list, as every other policy file has.
  return `${head}rules:\n${ruleBlock(rules)}`;
}

function ruleNode(doc: Document, rule: RuleToAdd) {
  const node = doc.createNode({ name: rule.name, ...rule.written });
  // Points and conditions read best as the flow sequences and maps the other rules use.
  const point = node.get('point', true) as { flow?: boolean } | undefined;
  if (point) point.flow = true;
  const when = node.get('when', true);
  if (isSeq(when)) for (const item of when.items as { flow?: boolean }[]) item.flow = true;
  node.commentBefore = ` ${rule.comment}`;
  return node;
}
