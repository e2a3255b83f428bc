/**
 * Every application a policy names exists on its account. The service wants
 * an application configured before a rule or IP entry uses its id; one that
 * does not exist would be written and protect nothing, with no word from the
 * service. Pure: the listing is read beside the live state (live/applications.ts).
 */
import { UnknownApplicationError } from '../errors.js';
import type { ClientApplications } from '../live/applications.js';
import type { ApplicationSource } from '../model/state.js';

/** How many applications an error lists by name; the rest are counted. */
const MAX_NAMED = 12;

/**
 * Throws when a policy names an application its account does not have,
 * naming each `application:` (file:line:col) and what the account has.
 * Returns the warnings for accounts whose applications the token may not list.
 */
export function checkApplications(sources: readonly ApplicationSource[], applications: ReadonlyMap<number, ClientApplications>): string[] {
  const missing: string[] = [];
  const warnings = new Set<string>();
  for (const source of sources) {
    const account = applications.get(source.client);
    if (!account) continue;
    if ('unreadable' in account) {
      warnings.add(`the applications of client ${source.client} could not be listed, so the applications the policies name are not checked: ${account.unreadable}`);
      continue;
    }
    if (account.listed.has(source.application)) continue;
    missing.push(`  ${source.file}:${source.line}:${source.col}: application ${source.application} is not an application of client ${source.client}; it has ${named(account.listed)}`);
  }
  if (missing.length > 0) {
    throw new UnknownApplicationError(
      `${missing.length} application(s) named in the policies do not exist on their account; nothing is planned:\n${missing.join('\n')}\n` +
      'Create the application in the console first (objects scoped to one that does not exist protect nothing), or fix the id.',
    );
  }
  return [...warnings];
}

/** `-1 (default), 7 (shop), 8 (api)`. */
function named(listed: ReadonlyMap<number, string>): string {
  const all = [...listed].sort((a, b) => a[0] - b[0]).map(([id, name]) => (name ? `${id} (${name})` : String(id)));
  if (all.length === 0) return 'none';
  return all.length > MAX_NAMED ? `${all.slice(0, MAX_NAMED).join(', ')} and ${all.length - MAX_NAMED} more` : all.join(', ');
}
