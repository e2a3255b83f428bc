/** IP-list entries as the planner and readers of a plan see them: one change writes the values of one object. */
import { InternalError } from '../../errors.js';
import { deletedIdsByList, type IpChange, type DeleteIp, type IpAttributesBefore, type CreateIp, type AdoptIp } from '../../model/ip-change.js';
import { onAction, type ByAction } from '../../model/by-action.js';
import type { IpEntry, LiveIpEntry } from '../../model/ip.js';
import { ipCreateCalls, type IpApiName } from '../../model/ip-list-apis.js';
import { IP_DIGEST } from './ip-digest.js';
import type { ObjectCounts } from '../counts.js';
import type { Source } from '../../model/source.js';
import { compareSources } from '../notes.js';
import { ipWriteKey } from '../../model/ip-fingerprint.js';
import { unionApplication, poolsApplication, toPlanIpObject } from './ip-document.js';
import type { PlanDeleteIp, PlanIpBefore, PlanIpChange, PlanSource } from './ip-document.js';
import type { BuiltInPlanClass, GuardedDeletes, UndeclaredObject } from './class.js';

/** What a create or an adoption writes, as the plan carries it. */
function written(change: CreateIp | AdoptIp) {
  const sources = planSources(change.entries);
  const first = sources[0] ?? { file: '', line: 0, col: 0, name: '' };
  return {
    head: { kind: 'ip', client: change.client, application: poolsApplication(change.pools) } as const,
    source: { file: first.file, line: first.line, col: first.col, name: first.name },
    tail: {
      ...(change.before && change.before.length > 0 ? { before: change.before.map(toPlanIpBefore) } : {}),
      object: toPlanIpObject(change, change.entries.map((e) => e.value)),
      sources,
    },
  };
}

/** Each action's part of the class, one cell per action (model/by-action.ts). */
const TO_PLAN: ByAction<IpChange, PlanIpChange> = {
  create(change) {
    const { head, source, tail } = written(change);
    return {
      action: 'create', ...head, ...source, force: change.force,
      ...(change.replaces && change.replaces.length > 0 ? { replaces: [...change.replaces] } : {}),
      ...tail,
    };
  },
  adopt(change) {
    const { head, source, tail } = written(change);
    return { action: 'adopt', ...head, ids: [...change.from], ...source, fields: [...change.fields], ...tail };
  },
  delete: (change) => deleteChange(change),
};

/** The calls a change makes on an IP-list API: a create one per object it writes, a delete one per list. */
function callsOn(ipApi: IpApiName): ByAction<IpChange, number> {
  return { create: (c) => ipCreateCalls(ipApi, c.entries.length), adopt: () => 1, delete: (c) => deletedIdsByList(c).size };
}

const COUNTS: ByAction<IpChange, ObjectCounts> = {
  create: (change) => (change.force ? { replace: change.entries.length } : { create: change.entries.length }),
  adopt: (change) => ({ adopt: change.entries.length }),
  delete(change) {
    let deleted = 0;
    for (const o of change.objects) deleted += o.size - o.moved.length;
    return { delete: deleted };
  },
};

const NOTHING_GUARDED = { count: 0, moves: 0 } as const;

const GUARDED: ByAction<IpChange, GuardedDeletes> = {
  create: () => NOTHING_GUARDED,
  adopt: () => NOTHING_GUARDED,
  delete(change) {
    let count = 0;
    let moves = 0;
    for (const o of change.objects) {
      if (o.reason === 'not-declared') count += o.entries.length;
      if (o.reason === 'moved') {
        count += o.entries.length;
        moves += o.entries.length;
      }
    }
    return { count, moves };
  },
};

const whereOf = (entries: CreateIp['entries']): string => {
  const first = firstOf(entries);
  return `${first.file}:${first.line}:${first.col}`;
};
const valuesOf = (change: CreateIp | AdoptIp): string => `${change.list} ${change.entries.map((e) => e.value).join(', ')}`;

const DESCRIBE: ByAction<IpChange, string> = {
  create: (change) => `create ${valuesOf(change)} (${whereOf(change.entries)})`,
  adopt: (change) => `adopt ${valuesOf(change)} from ${change.from.map((id) => `#${id}`).join(', ')} (${whereOf(change.entries)})`,
  delete: (change) => `delete IP objects ${change.objects.map((o) => o.id).join(', ')} of client ${change.client}`,
};

const NONE: readonly number[] = [];

/** The change with these of its values only; undefined for none. */
function withEntries<C extends CreateIp | AdoptIp>(change: C, entries: C['entries']): C | undefined {
  if (entries.length === change.entries.length) return change;
  return entries.length === 0 ? undefined : { ...change, entries };
}

const NO_OBJECTS: readonly UndeclaredObject[] = [];

// No keyed diff: recognition and adoption diff the rules and the IP entries together (diff.ts).
export const IP_ENTRIES: BuiltInPlanClass<IpChange, PlanIpChange, IpEntry, LiveIpEntry> = {
  digest: IP_DIGEST,
  order: 1,
  noun: 'IP object',
  objectLabel: ({ id, value }) => `${value ?? '?'} #${id}`,

  client: (change) => change.client,
  sortTail: (change) => onAction(change, {
    create: (c) => c.list,
    adopt: (c) => String(c.from[0] ?? 0).padStart(16, '0'),
    delete: () => '0'.padStart(16, '0'),
  }),
  firstSource: (change) => onAction(change, { create: (c) => firstOf(c.entries), adopt: () => undefined, delete: () => undefined }),
  toPlanChange: (change) => onAction(change, TO_PLAN),

  counts: (change) => onAction(change, COUNTS),
  guarded: (change) => onAction(change, GUARDED),
  undeclared: (change) => onAction(change, {
    create: () => NO_OBJECTS, adopt: () => NO_OBJECTS,
    delete: (c) => c.objects.filter((o) => o.reason === 'not-declared').flatMap((o) => o.entries.map((e) => ({ id: o.id, value: e.value }))),
  }),
  // A create or adoption is one call; a delete one call per list of its client's batch.
  calls: (changes, { ipApi }) => {
    const calls = callsOn(ipApi);
    return changes.reduce((sum, change) => sum + onAction(change, calls), 0);
  },
  describe: (change) => onAction(change, DESCRIBE),
  takesOver: (change) => onAction(change, { create: (c) => c.replaces ?? NONE, adopt: (c) => c.from, delete: () => NONE }),
  deletesFirst: () => NONE,
  deletedIds: (change) => onAction(change, { create: () => NONE, adopt: () => NONE, delete: (c) => c.objects.map((o) => o.id) }),
  declaredBy: (change, declared) => onAction<IpChange, IpChange | undefined>(change, {
    create: (c) => withEntries(c, c.entries.filter((e) => declared(e.source))),
    adopt: (c) => withEntries(c, c.entries.filter((e) => declared(e.source))),
    delete: () => undefined,
  }),

  writeKey(change) {
    const entries = onAction<IpChange, readonly IpEntry[]>(change, { create: (c) => c.entries, adopt: (c) => c.entries, delete: (c) => c.objects.flatMap((o) => o.entries) });
    return `ip|${entries.map(ipWriteKey).sort().join(',')}`;
  },
  writtenValues: (change) => onAction(change, {
    create: (c) => c.entries.map((e) => `${e.list}|${e.value}`),
    adopt: (c) => c.entries.map((e) => `${e.list}|${e.value}`),
    delete: () => [],
  }),
  without: (change, heldIds, heldValues) => onAction<IpChange, IpChange | undefined>(change, {
    create: (c) => c,
    adopt: (c) => c,
    delete(c) {
      const objects = c.objects.filter((o) => !heldIds.has(o.id) && !o.entries.some((e) => heldValues.has(`${c.client}|${e.list}|${e.value}`)));
      if (objects.length === c.objects.length) return c;
      return objects.length === 0 ? undefined : { ...c, objects };
    },
  }),
};

function deleteChange(c: DeleteIp): PlanDeleteIp {
  const all = c.objects.flatMap((o) => [...o.entries, ...o.moved]);
  return {
    action: 'delete', kind: 'ip', client: c.client, application: unionApplication(all),
    ids: c.objects.map((o) => o.id),
    objects: c.objects.map((o) => {
      const first = o.entries[0] ?? o.moved[0];
      if (!first) throw new InternalError(`IP object ${o.id} to delete holds no value`);
      return {
        id: o.id, reason: o.reason, application: poolsApplication(first.pools), size: o.size,
        object: toPlanIpObject(first, o.entries.map((e) => e.value)),
        ...(o.moved.length > 0 ? { moved: o.moved.map((e) => e.value) } : {}),
      };
    }),
  };
}

/** The policy lines that declared the values of one IP change, each with its values. */
function planSources(entries: CreateIp['entries']): PlanSource[] {
  const [only] = entries;
  // Most creates carry one value (every ip_range value is a create of its own).
  if (only && entries.length === 1) {
    return [{ file: only.source.file, line: only.source.line, col: only.source.col, name: only.source.name, values: [only.value] }];
  }
  const bySource = new Map<string, { source: Source; values: string[] }>();
  for (const e of entries) {
    // A path holds no NUL and the name comes last: one key per declaring line.
    const key = `${e.source.file}\u0000${e.source.line}\u0000${e.source.col}\u0000${e.source.name}`;
    const s = bySource.get(key);
    if (s) s.values.push(e.value);
    else bySource.set(key, { source: e.source, values: [e.value] });
  }
  return [...bySource.values()]
    .sort((a, b) => compareSources(a.source, b.source))
    .map(({ source, values }) => ({ file: source.file, line: source.line, col: source.col, name: source.name, values }));
}

function toPlanIpBefore(b: IpAttributesBefore): PlanIpBefore {
  return { id: b.id, expires_at: b.expiresAt, ...(b.reason !== undefined ? { reason: b.reason } : {}) };
}

/** The first policy line that declared some of the values. */
export function firstOf(entries: readonly { readonly source: Source }[]): Source {
  let first: Source | undefined = entries[0]?.source;
  for (const entry of entries) if (first && compareSources(entry.source, first) < 0) first = entry.source;
  return first ?? { file: '', line: 0, col: 0, name: '' };
}
