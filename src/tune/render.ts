/** What `rampart tune` prints: per file, the YAML to add; then what is not proposed again, the notes and a summary. */
import { ruleBlock, type RuleToAdd } from './write.js';
import type { PlacedRule } from './place.js';
import { shown } from './shown.js';
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
  return `${proposal.type} ${shown(String(proposal.value))} at ${shown(proposal.group.point.map((e) => e.join(' ')).join(' › '))} on ${shown(proposal.group.domain)}${shown(proposal.group.path)}`;
}

export function renderTuneText(output: TuneOutput): string {
  const out: string[] = [];
  for (const [file, rules] of output.toAdd) {
    out.push(`${file}: ${rules.length} rule${rules.length === 1 ? '' : 's'} to add`);
    const yaml = ruleBlock(rules);
    out.push(...yaml.trimEnd().split('\n').map((line) => `  ${line}`), '');
  }
  for (const rule of output.result.rules) {
    if (rule.placement.status === 'declared') out.push(`already declared: ${what(rule)} (${rule.placement.where}): not proposed again`);
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
    ...(rule.placement.status === 'unmanaged' ? { live_id: rule.placement.id } : {}),
    ...(rule.proposal.group.derivedScope ? { service_scope_differs: true } : {}),
    request_ids: [...new Set(rule.proposal.group.hits.map((hit) => hit.requestId))],
    hits: rule.proposal.group.hits.map((hit) => hit.id),
  }));
  return `${JSON.stringify({ summary: { ...counts(output.result.rules), hits: output.result.hits }, rules, notes: output.result.notes, ...(output.written ? { written: output.written } : {}) }, null, 2)}\n`;
}
