import { annotation, escapeData } from '../../github-commands.js';

export { escapeData, escapeProperty } from '../../github-commands.js';
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


/**
 * GitHub Actions: notices on the policy lines that cause creates and updates, warnings on
 * the lines of notes that are warnings, and the markdown summary.
 */
export function renderGithub(plan: Plan, options: GithubOptions = {}): GithubOutput {
  const max = options.maxAnnotations ?? 50;
  const commands: string[] = [];
  for (const c of plan.changes) {
    if (c.action === 'update') {
      commands.push(annotation('notice', { file: c.file, line: c.line, col: c.col, title: 'Rampart: update' },
        `rule ${c.name} (${c.rule.kind}) will be updated in place for client ${c.client}: ${c.fields.join(', ')}`));
      continue;
    }
    if (c.action === 'adopt') {
      commands.push(annotation('notice', { file: c.file, line: c.line, col: c.col, title: 'Rampart: adopt' },
        `${c.kind === 'rule' ? `rule ${c.name} #${c.id}` : `${c.name}: ${c.object.values.join(', ')} (${c.ids.map((id) => `#${id}`).join(', ')})`} will be adopted for client ${c.client}`));
      continue;
    }
    if (c.action !== 'create') continue;
    const replacing = c.kind === 'rule' ? (c.replaces?.length ?? 0) > 0 : c.force;
    const title = replacing ? 'Rampart: replace' : 'Rampart: create';
    const verb = replacing ? 'will be replaced' : 'will be created';
    if (c.kind === 'rule') {
      commands.push(annotation('notice', { file: c.file, line: c.line, title },
        `rule ${c.name} (${c.rule.kind}) ${verb} for client ${c.client}`));
    } else {
      for (const s of c.sources) {
        commands.push(annotation('notice', { file: s.file, line: s.line, col: s.col, title },
          `${s.name}: ${s.values.join(', ')} ${verb} for client ${c.client}`));
      }
    }
  }
  for (const n of plan.notes) {
    if (n.level === 'warning') {
      commands.push(annotation('warning', { file: n.file, line: n.line, title: 'Rampart' }, `${n.name}: ${n.message}`));
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
