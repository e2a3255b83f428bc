/** Attack and vulnerability listings: `/v1/objects/attack`, `/v2/objects/attack`, `/v1/objects/vuln`. */
import type { EmulatorCore, Handler } from '../core.js';
import { invalid } from '../envelope.js';
import { optionalBool, optionalCount, requireIdList, requireRecord } from '../validate.js';
import type { Attack, Vuln } from './data.js';
import { attackFilter, vulnFilter } from './filters.js';

export const CURSOR_PAGE = 100;
const MAX_PAGE = 1000;
const ATTACK_ORDER = ['last_time', 'first_time', 'hits', 'id'] as const;

function clientData(core: EmulatorCore, filter: Record<string, unknown>): { attacks: Attack[]; vulns: Vuln[] } {
  const clients = requireIdList(filter.clientid, ['filter', 'clientid']);
  core.authorize(clients);
  const attacks: Attack[] = [];
  const vulns: Vuln[] = [];
  for (const id of new Set(clients)) {
    const demo = core.demo.get(id, core.nowSeconds());
    attacks.push(...demo.attacks);
    vulns.push(...demo.vulns);
  }
  return { attacks, vulns };
}

/** Offset paging; `!vulnid: null` gives incidents, `!state: "falsepositive"` drops false positives. */
export const listAttacks: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const matches = attackFilter(filter);
  const orderBy = body.order_by ?? 'last_time';
  if (typeof orderBy !== 'string' || !(ATTACK_ORDER as readonly string[]).includes(orderBy)) {
    throw invalid('order_by', `must be one of: ${ATTACK_ORDER.join(', ')}`);
  }
  const field = orderBy as (typeof ATTACK_ORDER)[number];
  const desc = optionalBool(body.order_desc, 'order_desc', false);
  const limit = optionalCount(body.limit, 'limit', { fallback: 50, min: 1, max: MAX_PAGE });
  const offset = optionalCount(body.offset, 'offset', { fallback: 0 });
  const rows = clientData(core, filter).attacks.filter(matches);
  rows.sort((a, b) => (a[field] - b[field] || a.clientid - b.clientid || a.id - b.id) * (desc ? -1 : 1));
  return { body: rows.slice(offset, offset + limit) };
};

/**
 * Cursor paging, newest first, 100 per page. The cursor is a keyset position
 * (last_time, clientid, id) so it stays valid while data changes; the last page
 * carries no `cursor` key, even when the total is an exact multiple of 100.
 */
export const pageAttacks: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  if (body.paging !== true) throw invalid('paging', 'must be true');
  const filter = requireRecord(body.filter, 'filter');
  const matches = attackFilter(filter);
  const after = body.cursor === undefined || body.cursor === null ? undefined : decodeCursor(body.cursor);
  const rows = clientData(core, filter).attacks.filter(matches).sort(newestFirst);
  const start = after ? rows.findIndex((a) => newestFirst(a, after) > 0) : 0;
  const page = start < 0 ? [] : rows.slice(start, start + CURSOR_PAGE);
  const last = page[page.length - 1];
  const more = start >= 0 && start + CURSOR_PAGE < rows.length;
  return { body: more && last ? { objects: page, cursor: encodeCursor(last) } : { objects: page } };
};

export const listVulns: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const matches = vulnFilter(filter);
  const limit = optionalCount(body.limit, 'limit', { fallback: 50, min: 1, max: MAX_PAGE });
  const offset = optionalCount(body.offset, 'offset', { fallback: 0 });
  const rows = clientData(core, filter).vulns.filter(matches).sort((a, b) => b.time - a.time || a.id - b.id);
  return { body: rows.slice(offset, offset + limit) };
};

type Position = Pick<Attack, 'last_time' | 'clientid' | 'id'>;

function newestFirst(a: Position, b: Position): number {
  return b.last_time - a.last_time || b.clientid - a.clientid || b.id - a.id;
}

function encodeCursor(a: Position): string {
  return Buffer.from(JSON.stringify([a.last_time, a.clientid, a.id])).toString('base64url');
}

function decodeCursor(value: unknown): Position {
  try {
    if (typeof value !== 'string') throw new Error('not a string');
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((n) => Number.isSafeInteger(n))) {
      const [last_time, clientid, id] = parsed as number[];
      return { last_time: last_time ?? 0, clientid: clientid ?? 0, id: id ?? 0 };
    }
  } catch {
    // fall through to the 400 below
  }
  throw invalid('cursor', 'is invalid');
}
