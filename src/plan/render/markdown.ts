import { applicationLabel } from '../objects.js';
import type { Plan } from '../types.js';
import { groupBy, leftUnmanagedPhrase, NO_CHANGES, NO_CHANGES_LEFT_BEHIND, planLines, SIGN_ACTIONS, summaryPhrase, unmanagedPhrase } from './lines.js';

export interface MarkdownOptions {
  /** Start with the hidden `<!-- rampart-plan -->` marker (default true). */
  readonly marker?: boolean;
  /** Heading text (default `Rampart plan`). */
  readonly title?: string;
}

/** CI finds the pull-request comment to update by this marker. */
export const MARKDOWN_MARKER = '<!-- rampart-plan -->';

/** User text in markdown and HTML contexts: no markup, no table breaks. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#~]/g, (c) => `\\${c}`)
    .replace(/\r?\n|\r/g, ' ');
}


/**
 * A pull-request comment: the summary table first, deletions called out, the
 * changes per client in `<details>` sections, notes, then the plan's checksum.
 */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const out: string[] = [];
  if (options.marker ?? true) out.push(MARKDOWN_MARKER);
  out.push(`### ${escapeMarkdown(options.title ?? 'Rampart plan')}`, '');
  if (plan.changes.length === 0) {
    const n = plan.summary.unchanged;
    out.push(`${plan.left_unmanaged.length > 0 ? NO_CHANGES_LEFT_BEHIND : NO_CHANGES} ${n} object${n === 1 ? '' : 's'} unchanged.`, '');
  } else {
    out.push(`**Plan: ${summaryPhrase(plan.summary)}** (${plan.api_calls} API calls, owner \`${plan.owner}\`)`, '');
    out.push('| Change | Objects |', '|---|---:|');
    out.push(`| Create | ${plan.summary.create} |`);
    if (plan.summary.update > 0) out.push(`| Update | ${plan.summary.update} |`);
    if (plan.summary.replace > 0) out.push(`| Replace | ${plan.summary.replace} |`);
    if (plan.summary.adopt > 0) out.push(`| Adopt | ${plan.summary.adopt} |`);
    out.push(`| Delete | ${plan.summary.delete} |`, `| Unchanged | ${plan.summary.unchanged} |`, '');
  }
  const unmanaged = unmanagedPhrase(plan);
  if (unmanaged) out.push(`> [!NOTE]\n> ${escapeMarkdown(unmanaged).replace(/\\`/g, '`')}`, '');
  const left = leftUnmanagedPhrase(plan);
  if (left) out.push(`> [!WARNING]\n> ${escapeMarkdown(left).replace(/\\`/g, '`')}`, '');
  if (plan.summary.delete > 0) {
    out.push('> [!WARNING]');
    out.push(`> This plan **deletes ${plan.summary.delete} object${plan.summary.delete === 1 ? '' : 's'}** ` +
      'from the account. Review the deletions below.');
    if (!plan.safety.ok) {
      out.push('>', `> The safety guard refuses it: ${plan.safety.delete_count} of ${plan.safety.owned_count} ` +
        `owned objects (more than ${Math.round(plan.safety.threshold * 100)}%). Apply with \`--force\` only if intended.`);
    }
    out.push('');
  }
  const lines = planLines(plan);
  const byClient = groupBy(lines, (l) => String(l.client));
  for (const [client, clientLines] of [...byClient.entries()].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    const n = clientLines.length;
    out.push('<details>', `<summary>Client ${client}: ${n} change${n === 1 ? '' : 's'}</summary>`, '');
    out.push('| | Change | Application | Object | Details | Source |', '|---|---|---|---|---|---|');
    for (const l of clientLines) {
      const source = l.source ? escapeMarkdown(l.source) : '';
      out.push(`| \`${l.sign}\` | ${SIGN_ACTIONS[l.sign]} ${l.kind} | ${applicationLabel(l.application)} | ` +
        `${escapeMarkdown(l.subject)} | ${escapeMarkdown(l.detail)} | ${source} |`);
    }
    out.push('', '</details>', '');
  }
  if (plan.notes.length > 0) {
    const warnings = plan.notes.filter((n) => n.level === 'warning').length;
    out.push('<details>', `<summary>Notes: ${plan.notes.length} (${warnings} warning${warnings === 1 ? '' : 's'})</summary>`, '');
    for (const n of plan.notes) {
      out.push(`- **${n.level}** ${escapeMarkdown(`${n.file}:${n.line}`)} ${n.kind} ` +
        `${escapeMarkdown(n.name)}: ${escapeMarkdown(n.message)}`);
    }
    out.push('', '</details>', '');
  }
  out.push(`<sub>checksum \`${plan.checksum.slice(0, 12)}\` · policies \`${plan.desired_digest.slice(0, 12)}\` · ` +
    `live \`${plan.live_digest.slice(0, 12)}\`</sub>`);
  return `${out.join('\n')}\n`;
}
