import { codeText, fencedBlock, markdownText } from '../../outside-text.js';
import { groupByAction } from '../../model/by-action.js';
import { planPhrase } from '../counts.js';
import { applicationLabel, applicationSortKey } from '../application.js';
import type { PlanDocument, PlanImpact } from '../types.js';
import { impactLine, impactSection } from './impact.js';
import { fitComment } from './markdown-fit.js';
import { changeBlocks, sourcesLabel } from './blocks.js';
import type { ChangeBlock } from './change-block.js';
import { groupBy } from './group.js';
import { commentHeader, escapeMarkdown, type CommentContext } from './header.js';
import { movesPhrase } from '../safety.js';
import { attributeLines, keptPhrase, leftUnmanagedPhrase, planSummaryLine, targetPhrase, undeclaredPhrase, unmanagedPhrase } from './layout.js';

export { escapeMarkdown, type CommentContext } from './header.js';

export interface MarkdownOptions {
  /** Start with the hidden `<!-- rampart-plan -->` marker (default true). */
  readonly marker?: boolean;
  /** Heading text (default `Rampart plan`). */
  readonly title?: string;
  /** The commit, CI run, API and time the plan belongs to (a pull-request comment's header). */
  readonly context?: CommentContext;
  /**
   * Longest output: past it, changes are left out from the end and a note
   * says how many, while the header, the summary and the deletions stay.
   */
  readonly maxChars?: number;
}

/** CI finds the pull-request comment to update by this marker. */
export const MARKDOWN_MARKER = '<!-- rampart-plan -->';

/** Deleted IP values named in the warning block before `and N more`. */
const WARNING_VALUES = 20;

function deletionLine(b: ChangeBlock): string {
  const where = `client ${b.client}, ${applicationLabel(b.application)}`;
  let what = b.title;
  if (b.values) {
    const named = b.values.list.slice(0, WARNING_VALUES);
    const more = b.values.list.length + b.values.hidden - named.length;
    what += `: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  }
  return `> - **${escapeMarkdown(what)}** · ${escapeMarkdown(where)} · ${escapeMarkdown(b.detail.join('; '))}`;
}

/** One change as a `diff` code block: GitHub and GitLab colour `+` green, `-` red, `!` orange. */
function blockMarkdown(b: ChangeBlock, impact: PlanImpact | undefined): string {
  const head = b.sign === '+' || b.sign === '-' ? b.sign : '!';
  const detail = b.detail.length > 0 ? `  ${b.detail.join('; ')}` : '';
  const where = b.sources.length > 0 ? `  (${sourcesLabel(b.sources)})` : '';
  const lines = [`${head === b.sign ? '' : `${head} `}${b.sign} ${b.title}${detail}${where}`];
  for (const line of attributeLines(b)) lines.push(line.changed ? `!   ~ ${line.text}` : `${head === '!' ? ' ' : head}     ${line.text}`);
  if (b.impact && impact) lines.push(`#     ${impactLine(b.impact, impact, codeText)}`);
  // Attribute values are the policies' (a regex may hold backticks): no line can close the fence.
  return fencedBlock('diff', lines.join('\n'));
}

/** A change block as the comment shows it: in full, and as the one line a cut comment lists it by. */
interface Chunk {
  readonly full: string;
  readonly line: string;
}

/** One line for a block: its sign and title, where it goes and where it is declared. */
function blockLine(b: ChangeBlock): string {
  const where = b.sources.length > 0 ? ` (${markdownText(sourcesLabel(b.sources), 120)})` : '';
  return `- \`${b.sign}\` ${markdownText(b.title, 160)} · client ${b.client}, ${escapeMarkdown(applicationLabel(b.application))}${where}`;
}

/** Each block under a heading per client and application, in the text renderer's order. */
function bodyChunks(plan: PlanDocument): Chunk[] {
  const chunks: Chunk[] = [];
  const byClient = groupBy(changeBlocks(plan), (b) => String(b.client));
  for (const [client, blocks] of [...byClient.entries()].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    const byApp = groupBy(blocks, (b) => applicationSortKey(b.application));
    for (const key of [...byApp.keys()].sort()) {
      const appBlocks = byApp.get(key) as ChangeBlock[];
      const heading = `#### Client ${client} · ${applicationLabel((appBlocks[0] as ChangeBlock).application)}\n\n`;
      appBlocks.forEach((b, i) => chunks.push({ full: `${i === 0 ? heading : ''}${blockMarkdown(b, plan.impact)}\n`, line: blockLine(b) }));
    }
  }
  return chunks;
}

function notesSection(plan: PlanDocument): string {
  if (plan.notes.length === 0) return '';
  const warnings = plan.notes.filter((n) => n.level === 'warning').length;
  const out = ['<details>', `<summary>Notes: ${plan.notes.length} (${warnings} warning${warnings === 1 ? '' : 's'})</summary>`, ''];
  for (const n of plan.notes) {
    out.push(`- **${n.level}** ${escapeMarkdown(`${n.file}:${n.line}`)} ${n.kind} ` +
      `${escapeMarkdown(n.name)}: ${escapeMarkdown(n.message)}`);
  }
  out.push('', '</details>', '', '');
  return out.join('\n');
}

function deletionWarning(plan: PlanDocument, deletions: readonly ChangeBlock[]): { head: string; lines: string[]; tail: string } {
  if (deletions.length === 0) return { head: '', lines: [], tail: '' };
  const n = plan.summary.delete;
  const head = `> [!CAUTION]\n> **This plan deletes ${n} object${n === 1 ? '' : 's'}** from the account:\n`;
  const tail = plan.safety.ok ? '\n' : `>\n> The safety guard refuses it: ${plan.safety.delete_count} of ${plan.safety.owned_count} ` +
    `owned objects${movesPhrase(plan.safety.move_count)} (more than ${Math.round(plan.safety.threshold * 100)}%). Apply with \`--force\` only if intended.\n\n`;
  return { head, lines: deletions.map(deletionLine), tail };
}

/**
 * A pull-request comment (and GitHub's step summary): header, the summary line,
 * every deletion named in a warning block outside any fold, then every change
 * with all its attributes (old → new where they change), notes folded, and the
 * plan's checksum. Pure: the CI context comes in `options.context`.
 */
export function renderMarkdown(plan: PlanDocument, options: MarkdownOptions = {}): string {
  const head: string[] = [];
  if (options.marker ?? true) head.push(MARKDOWN_MARKER);
  const counts = plan.changes.length === 0 ? 'no changes' : planPhrase(plan.summary);
  head.push(`### ${escapeMarkdown(options.title ?? 'Rampart plan')}: ${counts}`, '');
  if (options.context) head.push(commentHeader(options.context), '');
  if (plan.changes.length === 0) {
    const n = plan.summary.unchanged;
    head.push(`${planSummaryLine(plan)} ${n} object${n === 1 ? '' : 's'} unchanged.`, '');
  } else {
    head.push(`**${planSummaryLine(plan)}** Owner \`${plan.owner}\`.`, '');
  }
  const undeclared = undeclaredPhrase(plan);
  if (undeclared) head.push(`> [!WARNING]\n> ${escapeMarkdown(undeclared)}`, '');
  const target = targetPhrase(plan);
  if (target) head.push(`> [!WARNING]\n> ${escapeMarkdown(target)}`, '');
  const unmanaged = unmanagedPhrase(plan);
  if (unmanaged) head.push(`> [!NOTE]\n> ${escapeMarkdown(unmanaged).replace(/\\`/g, '`')}`, '');
  const left = leftUnmanagedPhrase(plan);
  if (left) head.push(`> [!WARNING]\n> ${escapeMarkdown(left).replace(/\\`/g, '`')}`, '');
  const kept = keptPhrase(plan);
  if (kept) head.push(`> [!NOTE]\n> ${escapeMarkdown(kept)}`, '');
  const blocks = changeBlocks(plan);
  // The evidence comes before the changes; a cut comment keeps its table, as far as a third of the room.
  const impact = (budget: number) => impactSection(plan, blocks, budget);
  const warning = deletionWarning(plan, groupByAction(blocks)('delete').filter((b) => b.count > 0));
  const chunks = bodyChunks(plan);
  const notes = notesSection(plan);
  const footer = `<sub>checksum \`${plan.checksum.slice(0, 12)}\` · policies \`${plan.desired_digest.slice(0, 12)}\` · ` +
    `live \`${plan.live_digest.slice(0, 12)}\`</sub>\n`;
  const top = `${head.join('\n')}\n`;
  const full = `${top}${impact(Number.POSITIVE_INFINITY).text}${warning.head}${warning.lines.join('\n')}${warning.lines.length ? '\n' : ''}${warning.tail}`
    + `${chunks.map((c) => c.full).join('\n')}${chunks.length ? '\n' : ''}${notes}${footer}`;
  if (options.maxChars === undefined || full.length <= options.maxChars) return full;
  return fitComment({ head: top, impact, warning, changes: chunks, notes, footer }, options.maxChars);
}

