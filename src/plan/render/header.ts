/**
 * What a pull-request comment says about where its plan comes from, so a
 * reviewer can tell whether it belongs to the commit under review: the
 * commit, a link to the CI run, the API planned against, and when.
 */
import { inlineCode as code } from '../../outside-text.js';

export { escapeMarkdown } from '../../outside-text.js';

export interface CommentContext {
  /** The commit the plan was made from (a full SHA is shortened to 12). */
  readonly commit?: string;
  /** The CI run (GitHub Actions run, GitLab pipeline or job). */
  readonly runUrl?: string;
  /** The service API the plan read. */
  readonly apiUrl?: string;
  /** When the plan was made or the run failed, ISO 8601. */
  readonly time?: string;
}

/** Only http(s) links, and nothing that ends the link early. */
function safeUrl(url: string): string | undefined {
  return /^https?:\/\/[^\s<>]+$/.test(url) ? url.replace(/[()]/g, (c) => encodeURIComponent(c)) : undefined;
}

/**
 * Ends the header line: what changes from run to run (the run, the time, a
 * new commit with the same plan), so a comment whose plan did not change is
 * left as it is (ci/pr-comment.ts compares bodies without this line).
 */
export const RUN_LINE_MARKER = '<!-- rampart-run -->';

/** `Commit `0123456789ab` · [CI run](…) · API `https://…` · 2026-11-23 18:40:12 UTC <!-- rampart-run -->` */
export function commentHeader(context: CommentContext): string {
  const parts: string[] = [];
  if (context.commit) parts.push(`Commit ${code(/^[0-9a-f]{40,64}$/i.test(context.commit) ? context.commit.slice(0, 12) : context.commit)}`);
  const run = context.runUrl ? safeUrl(context.runUrl) : undefined;
  if (run) parts.push(`[CI run](${run})`);
  if (context.apiUrl) parts.push(`API ${code(context.apiUrl)}`);
  if (context.time) parts.push(context.time.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'));
  return `${parts.join(' · ')} ${RUN_LINE_MARKER}`;
}
