/**
 * Break-glass: a `.rampart-pause` file in the policy directory stops every
 * write (the daemon plans and reports; `apply` refuses) until it is removed.
 * Its text is the reason, shown in logs, /readyz, /plan and the refusal. It
 * lives with the policies, so a commit (git-sync) or a ConfigMap key pauses
 * every replica without a redeploy, and the pause is as visible in review as
 * any other change.
 */
import { redactSecrets } from '../secrets.js';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const PAUSE_FILE = '.rampart-pause';

/** Longer reasons are cut: the text ends up in log lines and a metric-adjacent endpoint. */
const MAX_REASON = 200;

export interface Pause {
  /** Why, as the file (or the caller) says; never empty. */
  readonly reason: string;
  /** Milliseconds since the epoch: the file's modification time, or when the endpoint paused. */
  readonly since: number;
  /** Where it comes from: the file's path, or `endpoint`. */
  readonly by: string;
}

/** The reason as shown: a known secret redacted (the file may be a link to one), control characters out, whitespace folded, cut to a line. */
export function pauseReason(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this takes out
  const clean = redactSecrets(text).replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (clean === '') return 'no reason given';
  return clean.length > MAX_REASON ? `${clean.slice(0, MAX_REASON - 1)}…` : clean;
}

/** The pause the policy directory `root` declares, or undefined. An unreadable file still pauses. */
export async function readPauseFile(root: string): Promise<Pause | undefined> {
  const file = path.join(root, PAUSE_FILE);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? undefined : error));
  if (info === undefined) return undefined;
  if (info instanceof Error) return { reason: `pause file unreadable (${info.code ?? 'error'})`, since: Date.now(), by: file };
  const text = info.isFile() ? await readFile(file, 'utf8').catch(() => '') : '';
  return { reason: pauseReason(text), since: info.mtimeMs, by: file };
}
