
/**
 * The application(s) a change concerns, from the ids an object names (a
 * rule's `instance` conditions, an IP entry's pools: each class's document
 * module says which), and how a plan sorts and names them.
 */
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import type { Application } from './change-document.js';

/** The application(s) of an object from the ids it names (0: account-wide). */
export function applicationOf(ids: readonly number[]): Application {
  // Most objects name one application: no set, no sort.
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) return only === ALL_APPLICATIONS_POOL ? 'all' : only;
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0 || (unique.length === 1 && unique[0] === ALL_APPLICATIONS_POOL)) return 'all';
  if (unique.length === 1) return unique[0] as number;
  return unique;
}

/** A stable sort key for an application: account-wide first, then by id. */
export function applicationSortKey(app: Application): string {
  if (app === 'all') return '0';
  const ids = typeof app === 'number' ? [app] : app;
  return `1:${ids.map((n) => String(n).padStart(10, '0')).join(',')}`;
}

export function applicationLabel(app: Application): string {
  if (app === 'all') return 'all applications';
  if (typeof app === 'number') return `application ${app}`;
  return `applications ${app.map((n) => (n === ALL_APPLICATIONS_POOL ? 'all' : String(n))).join(', ')}`;
}
