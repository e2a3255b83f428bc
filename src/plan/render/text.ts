import { terminalText } from '../../outside-text.js';
import { applicationLabel, applicationSortKey } from '../application.js';
import type { PlanBody } from '../types.js';
import type { ImpactEffect } from '../change-document.js';
import { impactLine, impactSummaryLine } from './impact.js';
import { changeBlocks, sourcesLabel } from './blocks.js';
import type { ChangeBlock } from './change-block.js';
import { groupBy } from './group.js';
import { movesPhrase } from '../safety.js';
import { attributeLines, keptPhrase, leftUnmanagedPhrase, planSummaryLine, targetPhrase, undeclaredPhrase, unmanagedPhrase } from './layout.js';

export interface TextOptions {
  /** ANSI colours; callers pass `isTTY && !NO_COLOR`. */
  readonly color?: boolean;
}

const ANSI = { green: '\x1b[32m', red: '\x1b[31m', yellow: '\x1b[33m', cyan: '\x1b[36m', bold: '\x1b[1m', dim: '\x1b[2m', reset: '\x1b[0m' };
/** Blocking changes stand out; the rest of the evidence is quiet. */
const IMPACT_COLOR: Readonly<Record<ImpactEffect, string>> = {
  newly_blocked: ANSI.red, no_longer_blocked: ANSI.red, newly_detected: ANSI.yellow, no_longer_detected: ANSI.yellow,
  attack_hits_from: ANSI.cyan, none: ANSI.dim, not_evaluable: ANSI.dim,
};
const SIGN_COLOR = { '+': ANSI.green, '-': ANSI.red, '~': ANSI.yellow, '-/+': ANSI.yellow, '@': ANSI.cyan } as const;

/**
 * For a person at a terminal, in Terraform's shape: changes grouped by client,
 * then application; each with its declaring line and every attribute, a
 * changed one as `~ name: old → new`; then notes and the `Plan: ...` line.
 */
export function renderText(plan: PlanBody, options: TextOptions = {}): string {
  const paint = (code: string, text: string): string => (options.color ? `${code}${text}${ANSI.reset}` : text);
  const out: string[] = [];
  // v4 is the default and goes unsaid; the other API is named first, so a reviewer knows what was read.
  if (plan.ip_api) out.push(paint(ANSI.dim, `IP lists read and written through the ${plan.ip_api} API (--ip-api ${plan.ip_api})`), '');
  const undeclared = undeclaredPhrase(plan);
  if (undeclared) out.push(paint(ANSI.yellow, undeclared), '');
  const byClient = groupBy(changeBlocks(plan), (b) => String(b.client));
  for (const [client, blocks] of [...byClient.entries()].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    out.push(paint(ANSI.bold, `Client ${client}`));
    const byApp = groupBy(blocks, (b) => applicationSortKey(b.application));
    for (const key of [...byApp.keys()].sort()) {
      const appBlocks = byApp.get(key) as ChangeBlock[];
      out.push(`  ${applicationLabel((appBlocks[0] as ChangeBlock).application)}`);
      for (const b of appBlocks) {
        const detail = b.detail.length > 0 ? `  ${b.detail.join('; ')}` : '';
        const where = b.sources.length > 0 ? paint(ANSI.dim, `  (${sourcesLabel(b.sources)})`) : '';
        out.push(`    ${paint(SIGN_COLOR[b.sign], `${b.sign} ${b.title}`)}${detail}${where}`);
        for (const line of attributeLines(b)) {
          out.push(line.changed ? `        ${paint(ANSI.yellow, `~ ${line.text}`)}` : `          ${line.text}`);
        }
        if (b.impact && plan.impact) out.push(`        ${paint(IMPACT_COLOR[b.impact.effect], impactLine(b.impact, plan.impact, terminalText))}`);
      }
    }
    out.push('');
  }
  if (plan.notes.length > 0) {
    out.push('Notes:');
    for (const n of plan.notes) {
      const level = n.level === 'warning' ? paint(ANSI.yellow, 'warning') : 'info';
      out.push(`  ${level}: ${n.file}:${n.line} ${n.kind} ${n.name}: ${n.message}`);
    }
    out.push('');
  }
  const unmanaged = unmanagedPhrase(plan);
  if (unmanaged) out.push(unmanaged, '');
  const left = leftUnmanagedPhrase(plan);
  if (left) out.push(paint(ANSI.yellow, left), '');
  const kept = keptPhrase(plan);
  if (kept) out.push(kept, '');
  if (!plan.safety.ok) {
    out.push(paint(ANSI.red, `Warning: this plan deletes ${plan.safety.delete_count} of ${plan.safety.owned_count} ` +
      `owned objects${movesPhrase(plan.safety.move_count)}, more than the safety limit; apply refuses it without --force.`));
    out.push('');
  }
  const target = targetPhrase(plan);
  if (target) out.push(paint(ANSI.yellow, target), '');
  const impact = impactSummaryLine(plan, terminalText);
  if (impact) out.push(plan.impact?.complete === false || (plan.impact?.over_limit ?? 0) > 0 ? paint(ANSI.yellow, impact) : impact, '');
  out.push(planSummaryLine(plan));
  return `${out.join('\n')}\n`;
}
