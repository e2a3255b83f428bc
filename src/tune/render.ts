/** What `rampart tune` prints: per file, the YAML to add; then what is not proposed again, the notes and a summary. */
import { ruleBlock, type RuleToAdd } from './write.js';
import type { PlacedRule } from './place.js';
import type { Hit } from '../hits/read.js';
import { codeText } from '../outside-text.js';
import type { TuneResult } from './tune.js';

export interface TuneOutput {
  readonly result: TuneResult;
  readonly requestIds: readonly string[];
  readonly toAdd: ReadonlyMap<string, readonly RuleToAdd[]>;
  /** Set with `--write`: the files written. */
  readonly written?: readonly string[];
}

function counts(rules: readonly PlacedRule[]) {
  const of = (status: PlacedRule['placement']['status']) => rules.filter((r) => r.placement.status === status).length;
  return { new: of('new'), declared: of('declared'), unmanaged: of('unmanaged') };
}

function what(rule: PlacedRule): string {
  const { proposal } = rule;
  return `${proposal.type} ${codeText(String(proposal.value))} at ${codeText(proposal.group.point.map((e) => e.join(' ')).join(' › '))} on ${codeText(proposal.group.domain)}${codeText(proposal.group.path)}`;
}

/** How much of a flagged value is shown: enough to judge it, not a whole request body. */
const VALUE_SHOWN = 200;

function cut(value: string): string {
  return value.length > VALUE_SHOWN ? `${value.slice(0, VALUE_SHOWN)}…` : value;
}

/** Each request as the service saw it, first: host and path, then each hit's point, attack, stamps and the value flagged. */
function seenLines(hits: readonly Hit[]): string[] {
  const byRequest = new Map<string, Hit[]>();
  for (const hit of hits) byRequest.set(hit.requestId, [...(byRequest.get(hit.requestId) ?? []), hit]);
  return [...byRequest].flatMap(([requestId, list]) => {
    const [first] = list as [Hit];
    return [
      `request ${codeText(requestId)}: ${codeText(first.domain)}${codeText(first.path)}${first.application > 0 ? ` (application ${first.application})` : ''}`,
      ...list.map((hit) => `  ${codeText(hit.type)} at ${codeText(hit.point.join(' '))}${hit.stamps.length > 0 ? `, stamps ${hit.stamps.join(', ')}` : ''}` +
        `${hit.value !== undefined ? `: "${codeText(hit.value).replace(/"/g, '\\"')}"` : ''}`),
    ];
  });
}

export function renderTuneText(output: TuneOutput): string {
  const out: string[] = [];
  const seen = seenLines(output.result.seen);
  if (seen.length > 0) out.push('As the service saw them:', ...seen.map((line) => `  ${line}`), '');
  for (const [file, rules] of output.toAdd) {
    out.push(`${file}: ${rules.length} rule${rules.length === 1 ? '' : 's'} to add`);
    const yaml = ruleBlock(rules);
    out.push(...yaml.trimEnd().split('\n').map((line) => `  ${line}`), '');
  }
  for (const rule of output.result.rules) {
    if (rule.placement.status === 'declared') {
      out.push(rule.placement.coveredBy === undefined
        ? `already declared: ${what(rule)} (${rule.placement.where}): not proposed again`
        : `already covered: ${what(rule)} by rule ${rule.placement.coveredBy} (${rule.placement.where}), whose scope is broader: not proposed`);
    }
    if (rule.placement.status === 'unmanaged') {
      out.push(`already held by unmanaged rule #${rule.placement.id}${rule.placement.owner ? ` (owner ${rule.placement.owner})` : ''}: ${what(rule)}; ` +
        'declare it and run `rampart adopt` to manage it');
    }
  }
  for (const note of output.result.notes) out.push(`note: ${note}`);
  const c = counts(output.result.rules);
  const tail = c.new === 0 ? 'Nothing to add.' : output.written ? `Wrote ${output.written.join(', ')}.` : 'Run with --write to add them.';
  out.push(`Tune: ${c.new} new, ${c.declared} already declared, ${c.unmanaged} held by unmanaged rules, from ${output.result.hits} hit${output.result.hits === 1 ? '' : 's'} of ${output.requestIds.length} request${output.requestIds.length === 1 ? '' : 's'}. ${tail}`);
  return `${out.join('\n')}\n`;
}

export function renderTuneJson(output: TuneOutput): string {
  const rules = output.result.rules.map((rule) => ({
    status: rule.placement.status,
    file: rule.file,
    ...(rule.newFile ? { new_file: true } : {}),
    client: rule.proposal.group.client,
    application: rule.proposal.group.application > 0 ? rule.proposal.group.application : 'all',
    ...(rule.name ? { name: rule.name } : {}),
    rule: rule.written,
    ...(rule.placement.status === 'declared' ? { declared_at: rule.placement.where } : {}),
    ...(rule.placement.status === 'declared' && rule.placement.coveredBy !== undefined ? { covered_by: rule.placement.coveredBy } : {}),
    ...(rule.placement.status === 'unmanaged' ? { live_id: rule.placement.id } : {}),
    ...(rule.proposal.group.derivedScope ? { service_scope_differs: true } : {}),
    request_ids: [...new Set(rule.proposal.group.hits.map((hit) => hit.requestId))],
    hits: rule.proposal.group.hits.map((hit) => hit.id),
  }));
  const requests = output.result.seen.map((hit) => ({
    request_id: hit.requestId, hit: hit.id, host: hit.domain, path: hit.path, application: hit.application, type: hit.type, point: hit.point, stamps: hit.stamps,
    ...(hit.value !== undefined ? { value: cut(hit.value) } : {}),
  }));
  return `${JSON.stringify({ summary: { ...counts(output.result.rules), hits: output.result.hits }, requests, rules, notes: output.result.notes, ...(output.written ? { written: output.written } : {}) }, null, 2)}\n`;
}
