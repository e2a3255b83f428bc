/** `POST /v1/objects/hit` (filters and offset paging) and `POST /v1/objects/action/by_hit`. */
import type { EmulatorCore, Handler } from '../core.js';
import { HttpError, invalid } from '../envelope.js';
import { optionalBool, optionalCount, requirePositiveInt, requireRecord } from '../validate.js';
import { demoHits } from './demo.js';
import type { HitRecord, StoredHit } from './records.js';
import { serviceScope } from './scope.js';

const MAX_PAGE = 1000;
type Pair = [string, string];

/** Every hit of an account: the demo ones (unless turned off) and those seeded. */
export function accountHits(core: EmulatorCore, clientid: number): StoredHit[] {
  const seeded = core.hits.get(clientid) ?? [];
  return core.config.demoTraffic ? [...demoHits(clientid, core.nowSeconds()), ...seeded] : seeded;
}

const inTimeOrder = (a: HitRecord, b: HitRecord): number => a.time - b.time || (a.id[1] < b.id[1] ? -1 : a.id[1] > b.id[1] ? 1 : 0);

/** Seeded hits sorted by time, kept while the account's list only grows (a benchmark pages through 100k). */
const sortedSeeds = new WeakMap<StoredHit[], { readonly length: number; readonly rows: HitRecord[] }>();

/** An account's hits in time order: the seeded ones sorted once, the demo ones merged in. */
function byTime(core: EmulatorCore, clientid: number): HitRecord[] {
  const seeded = core.hits.get(clientid) ?? [];
  let sorted = sortedSeeds.get(seeded);
  if (sorted?.length !== seeded.length) {
    sorted = { length: seeded.length, rows: seeded.map((hit) => hit.record).sort(inTimeOrder) };
    sortedSeeds.set(seeded, sorted);
  }
  if (!core.config.demoTraffic) return sorted.rows;
  const demo = demoHits(clientid, core.nowSeconds()).map((hit) => hit.record).sort(inTimeOrder);
  const merged: HitRecord[] = [];
  let i = 0;
  let j = 0;
  while (i < demo.length || j < sorted.rows.length) {
    const a = demo[i];
    const b = sorted.rows[j];
    if (b === undefined || (a !== undefined && inTimeOrder(a, b) <= 0)) {
      merged.push(a as HitRecord);
      i++;
    } else {
      merged.push(b);
      j++;
    }
  }
  return merged;
}

/** Where offset paging of one filter stops (offset + limit), as such listings cap it: read a long window in time slices. */
const OFFSET_CAP = 10_000;

export const listHits: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const clientid = requirePositiveInt(filter.clientid, 'filter.clientid');
  core.authorize([clientid]);
  const matches = hitFilter(filter);
  if (body.order_by !== undefined && body.order_by !== 'time') throw invalid('order_by', 'must be time');
  const desc = optionalBool(body.order_desc, 'order_desc', false);
  const limit = optionalCount(body.limit, 'limit', { fallback: 50, min: 1, max: MAX_PAGE });
  const offset = optionalCount(body.offset, 'offset', { fallback: 0 });
  if (offset + limit > OFFSET_CAP) throw invalid('offset', `offset + limit must not pass ${OFFSET_CAP}: narrow the filter (a shorter time range)`);
  const rows = byTime(core, clientid).filter(matches);
  if (desc) rows.reverse();
  return { body: rows.slice(offset, offset + limit).map((hit) => structuredClone(hit)) };
};

/** The conditions the service gives a hit (without the application), and its account. */
export const actionByHit: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const id = pair(body.id, 'id');
  for (const [clientid, hits] of allAccounts(core, id)) {
    const found = hits.find((hit) => samePair(hit.record.id, id));
    if (!found) continue;
    core.authorize([clientid]);
    return { body: { conditions: found.scope ?? serviceScope(found.record), clientid } };
  }
  throw new HttpError(404, { id: { error: 'not found' } });
};

/** The accounts a hit id may belong to: every seeded one, and the one a demo id names. */
function allAccounts(core: EmulatorCore, id: Pair): [number, StoredHit[]][] {
  const demo = /^d(\d+)-/.exec(id[1]);
  const clients = new Set([...core.hits.keys(), ...(demo ? [Number(demo[1])] : [])]);
  return [...clients].map((clientid) => [clientid, accountHits(core, clientid)]);
}

function hitFilter(filter: Record<string, unknown>): (hit: HitRecord) => boolean {
  const checks: ((hit: HitRecord) => boolean)[] = [];
  // One request per listing: the service's client sends a string, and a list is not known to work.
  const requestId = filter.request_id;
  if (requestId !== undefined && requestId !== null) {
    if (typeof requestId !== 'string') throw invalid('filter.request_id', 'must be a string');
    checks.push((hit) => hit.request_id === requestId);
  }
  const ids = pairs(filter.id, 'filter.id');
  if (ids) checks.push((hit) => ids.some((id) => samePair(id, hit.id)));
  const attacks = pairs(filter.attackid, 'filter.attackid');
  if (attacks) checks.push((hit) => attacks.some((id) => samePair(id, hit.attackid)));
  // Lists of hosts, paths and addresses, as public clients filter them; `poolid` a list of applications.
  for (const key of ['domain', 'path', 'ip'] as const) {
    const values = strings(filter[key], `filter.${key}`);
    if (values) checks.push((hit) => values.includes(hit[key]));
  }
  const pools = filter.poolid;
  if (pools !== undefined && pools !== null) {
    if (!Array.isArray(pools) || !pools.every((p) => Number.isInteger(p))) throw invalid('filter.poolid', 'must be a list of application ids');
    checks.push((hit) => (pools as number[]).includes(hit.poolid));
  }
  const types = strings(filter.type, 'filter.type');
  if (types) checks.push((hit) => types.includes(hit.type));
  const notTypes = strings(filter['!type'], 'filter.!type');
  if (notTypes) checks.push((hit) => !notTypes.includes(hit.type));
  const times = timeRanges(filter.time);
  if (times) checks.push((hit) => times.some(([from, to]) => (from === null || hit.time >= from) && (to === null || hit.time <= to)));
  if (filter.state !== undefined) checks.push((hit) => hit.state === filter.state);
  if (filter.experimental !== undefined) checks.push((hit) => hit.experimental === filter.experimental);
  if (filter['!state'] !== undefined) checks.push((hit) => hit.state !== filter['!state']);
  for (const flag of ['experimental', 'aasm_event', 'service_scanner'] as const) {
    const not = filter[`!${flag}`];
    if (not !== undefined) checks.push((hit) => hit[flag] !== not);
  }
  return (hit) => checks.every((check) => check(hit));
}

function strings(value: unknown, path: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string')) throw invalid(path, 'must be strings');
  return list as string[];
}

function pair(value: unknown, path: string): Pair {
  if (!Array.isArray(value) || value.length !== 2 || value.some((v) => typeof v !== 'string' && typeof v !== 'number')) {
    throw invalid(path, 'must be an [index, id] pair');
  }
  return [String(value[0]), String(value[1])];
}

function pairs(value: unknown, path: string): Pair[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid(path, 'must be a list of [index, id] pairs');
  return value.map((v) => pair(v, path));
}

function samePair(a: Pair, b: Pair): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

function timeRanges(value: unknown): [number | null, number | null][] | undefined {
  if (value === undefined || value === null) return undefined;
  const valid = Array.isArray(value) && value.every((range) => Array.isArray(range) && range.length === 2
    && range.every((end) => end === null || (typeof end === 'number' && Number.isFinite(end))));
  if (!valid) throw invalid('filter.time', 'must be a list of [from, to] pairs');
  return value as [number | null, number | null][];
}
