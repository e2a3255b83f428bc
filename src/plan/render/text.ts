import { applicationLabel, applicationSortKey } from '../objects.js';
import type { Plan } from '../types.js';
import {
  groupBy, leftUnmanagedPhrase, NO_CHANGES, NO_CHANGES_LEFT_BEHIND, planLines, summaryPhrase, unmanagedPhrase, type PlanLine,
} from './lines.js';

export interface TextOptions {
  /** ANSI colours; callers pass `isTTY && !NO_COLOR`. */
  readonly color?: boolean;
}

const ANSI = { green: '\x1b[32m', red: '\x1b[31m', yellow: '\x1b[33m', cyan: '\x1b[36m', bold: '\x1b[1m', dim: '\x1b[2m', reset: '\x1b[0m' };
const SIGN_COLOR = { '+': ANSI.green, '-': ANSI.red, '~': ANSI.yellow, '-/+': ANSI.yellow, '@': ANSI.cyan } as const;

/**
 * For a person at a terminal: changes grouped by client, then application,
 * notes, and one closing line (`Plan: ...` or `No changes. ...`).
 */
export function renderText(plan: Plan, options: TextOptions = {}): string {
  const paint = (code: string, text: string): string => (options.color ? `${code}${text}${ANSI.reset}` : text);
  const out: string[] = [];
  const byClient = groupBy(planLines(plan), (l) => String(l.client));
  for (const [client, clientLines] of [...byClient.entries()].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    out.push(paint(ANSI.bold, `Client ${client}`));
    const byApp = groupBy(clientLines, (l) => applicationSortKey(l.application));
    for (const key of [...byApp.keys()].sort()) {
      const appLines = byApp.get(key) as PlanLine[];
      out.push(`  ${applicationLabel((appLines[0] as PlanLine).application)}`);
      for (const l of appLines) {
        const detail = l.detail ? `  ${l.detail}` : '';
        const where = l.source ? paint(ANSI.dim, `  (${l.source})`) : '';
        out.push(`    ${paint(SIGN_COLOR[l.sign], `${l.sign} ${l.subject}`)}${detail}${where}`);
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
  if (!plan.safety.ok) {
    out.push(paint(ANSI.red, `Warning: this plan deletes ${plan.safety.delete_count} of ${plan.safety.owned_count} ` +
      'owned objects, more than the safety limit; apply refuses it without --force.'));
    out.push('');
  }
  out.push(plan.changes.length > 0 ? `Plan: ${summaryPhrase(plan.summary)}.` : left ? NO_CHANGES_LEFT_BEHIND : NO_CHANGES);
  return `${out.join('\n')}\n`;
}
