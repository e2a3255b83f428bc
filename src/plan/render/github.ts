import type { Plan } from '../types.js';
import { renderMarkdown } from './markdown.js';

export interface GithubOptions {
  /** Most annotations to emit; GitHub shows only a few per step anyway (default 50). */
  readonly maxAnnotations?: number;
}

export interface GithubOutput {
  /** Workflow commands for standard output: one `::notice` per declaring line of a create. */
  readonly annotations: string;
  /** Markdown for `$GITHUB_STEP_SUMMARY`. */
  readonly summary: string;
}

/** Workflow-command message data: `%`, CR and LF are escaped. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command property values: as data, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(level: 'notice' | 'warning', props: Record<string, string | number>, message: string): string {
  const list = Object.entries(props).map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${level} ${list}::${escapeData(message)}`;
}

/**
 * GitHub Actions: notices on the policy lines that cause creates, warnings on
 * the lines of notes that are warnings, and the markdown summary.
 */
export function renderGithub(plan: Plan, options: GithubOptions = {}): GithubOutput {
  const max = options.maxAnnotations ?? 50;
  const commands: string[] = [];
  for (const c of plan.changes) {
    if (c.action !== 'create') continue;
    const replacing = c.kind === 'rule' ? (c.replaces?.length ?? 0) > 0 : c.force;
    const title = replacing ? 'Rampart: replace' : 'Rampart: create';
    const verb = replacing ? 'will be replaced' : 'will be created';
    if (c.kind === 'rule') {
      commands.push(command('notice', { file: c.file, line: c.line, title },
        `rule ${c.name} (${c.rule.type}) ${verb} for client ${c.client}`));
    } else {
      for (const s of c.sources) {
        commands.push(command('notice', { file: s.file, line: s.line, col: s.col, title },
          `${s.name}: ${s.values.join(', ')} ${verb} for client ${c.client}`));
      }
    }
  }
  for (const n of plan.notes) {
    if (n.level === 'warning') {
      commands.push(command('warning', { file: n.file, line: n.line, title: 'Rampart' }, `${n.name}: ${n.message}`));
    }
  }
  const shown = commands.slice(0, max);
  if (commands.length > max) {
    shown.push(`::notice::${escapeData(`${commands.length - max} more annotations left out; see the step summary`)}`);
  }
  return {
    annotations: shown.length > 0 ? `${shown.join('\n')}\n` : '',
    summary: renderMarkdown(plan, { marker: false }),
  };
}
