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
import { poolsApplication, toPlanIpObject } from './ip-document.js';
import { applicationOf } from '../application.js';
import type { Application } from '../change-document.js';
import type { PlanDeleteIp, PlanIpBefore, PlanIpChange, PlanSource } from './ip-document.js';
import type { BuiltInPlanClass, GuardedDeletes, UndeclaredObject } from './class.js';

/**
 * Each action's part of the class, one cell per action (model/by-action.ts).
 * A create and an adoption are written out member by member, in the
 * document's order: a plan encodes one per value moved or added (tens of
 * thousands), and spreads of parts cost more than the members.
 */
const TO_PLAN: ByAction<IpChange, PlanIpChange> = {
  create(change) {
    const sources = planSources(change.entries);
    const { file, line, col, name } = firstSourceOf(sources);
    // Members added in the document's order, optional ones only when present (no spread, no variant per combination).
    const create: Record<string, unknown> = {
      action: 'create', kind: 'ip', client: change.client, application: poolsApplication(change.pools), file, line, col, name, force: change.force,
    };
    if (change.replaces && change.replaces.length > 0) create.replaces = [...change.replaces];
    if (change.before && change.before.length > 0) create.before = change.before.map(toPlanIpBefore);
    create.object = toPlanIpObject(change, valueList(change.entries));
    create.sources = sources;
    // Sound: the members are PlanCreateIp's, each set above.
    return create as unknown as PlanIpChange;
  },
  adopt(change) {
    const sources = planSources(change.entries);
    const { file, line, col, name } = firstSourceOf(sources);
    const head = {
      action: 'adopt', kind: 'ip', client: change.client, application: poolsApplication(change.pools), ids: [...change.from], file, line, col, name,
      fields: [...change.fields],
    } as const;
    const object = toPlanIpObject(change, valueList(change.entries));
    return change.before && change.before.length > 0
      ? { ...head, before: change.before.map(toPlanIpBefore), object, sources }
      : { ...head, object, sources };
  },
  delete: (change) => deleteChange(change),
};

const NO_SOURCE = { file: '', line: 0, col: 0, name: '' } as const;

const firstSourceOf = (sources: readonly PlanSource[]): Pick<PlanSource, 'file' | 'line' | 'col' | 'name'> => sources[0] ?? NO_SOURCE;

function valueList(entries: readonly IpEntry[]): string[] {
  const values = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) values[i] = (entries[i] as IpEntry).value;
  return values;
}

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

// Tables made once, not per change asked (see rules.ts).

const SORT_TAIL: ByAction<IpChange, string> = {
  create: (c) => c.list,
  adopt: (c) => String(c.from[0] ?? 0).padStart(16, '0'),
  delete: () => '0'.padStart(16, '0'),
};

const FIRST_SOURCE: ByAction<IpChange, Source | undefined> = { create: (c) => firstOf(c.entries), adopt: () => undefined, delete: () => undefined };

const TAKES_OVER: ByAction<IpChange, readonly number[]> = { create: (c) => c.replaces ?? NONE, adopt: (c) => c.from, delete: () => NONE };

const DELETED_IDS: ByAction<IpChange, readonly number[]> = { create: () => NONE, adopt: () => NONE, delete: (c) => c.objects.map((o) => o.id) };

// No keyed diff: recognition and adoption diff the rules and the IP entries together (diff.ts).
export const IP_ENTRIES: BuiltInPlanClass<IpChange, PlanIpChange, IpEntry, LiveIpEntry> = {
  digest: IP_DIGEST,
  order: 1,
  noun: 'IP object',
  objectLabel: ({ id, value }) => `${value ?? '?'} #${id}`,

  client: (change) => change.client,
  sortTail: (change) => onAction(change, SORT_TAIL),
  firstSource: (change) => onAction(change, FIRST_SOURCE),
  toPlanChange: (change) => onAction(change, TO_PLAN),

  counts: (change) => onAction(change, COUNTS),
  guarded: (change) => onAction(change, GUARDED),
  undeclared: (change) => onAction(change, {
    create: () => NO_OBJECTS, adopt: () => NO_OBJECTS,
    delete: (c) => {
      // One list, no list per object: a batched delete can hold tens of thousands.
      const undeclared: UndeclaredObject[] = [];
      for (const o of c.objects) if (o.reason === 'not-declared') for (const e of o.entries) undeclared.push({ id: o.id, value: e.value });
      return undeclared;
    },
  }),
  // A create or adoption is one call; a delete one call per list of its client's batch.
  calls: (changes, { ipApi }) => {
    const calls = callsOn(ipApi);
    return changes.reduce((sum, change) => sum + onAction(change, calls), 0);
  },
  describe: (change) => onAction(change, DESCRIBE),
  takesOver: (change) => onAction(change, TAKES_OVER),
  deletesFirst: () => NONE,
  deletedIds: (change) => onAction(change, DELETED_IDS),
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
  return {
    action: 'delete', kind: 'ip', client: c.client, application: deletedApplication(c),
    ids: c.objects.map((o) => o.id),
    objects: c.objects.map((o) => {
      const first = o.entries[0] ?? o.moved[0];
      if (!first) throw new InternalError(`IP object ${o.id} to delete holds no value`);
      const object = toPlanIpObject(first, valueList(o.entries));
      const application = poolsApplication(first.pools);
      return o.moved.length > 0
        ? { id: o.id, reason: o.reason, application, size: o.size, object, moved: valueList(o.moved) }
        : { id: o.id, reason: o.reason, application, size: o.size, object };
    }),
  };
}

/**
 * `unionApplication` of every value the objects held (moved ones too), from
 * the distinct pools: the same application, without a list of every value
 * of a batch that can delete tens of thousands.
 */
function deletedApplication(c: DeleteIp): Application {
  const pools = new Set<number>();
  for (const o of c.objects) {
    for (const e of o.entries) for (const pool of e.pools) pools.add(pool);
    for (const e of o.moved) for (const pool of e.pools) pools.add(pool);
  }
  // `applicationOf` sorts and dedupes the ids it is given: the distinct ones, in any order, name the same.
  return applicationOf([...pools]);
}

/**
 * The policy lines that declared the values of one IP change, each with its
 * values. Grouped by file, then line, no key text made per value: a create
 * of countries can carry thousands, each from its own line.
 */
function planSources(entries: CreateIp['entries']): PlanSource[] {
  const [only] = entries;
  // Most creates carry one value (every ip_range value is a create of its own).
  if (only && entries.length === 1) {
    return [{ file: only.source.file, line: only.source.line, col: only.source.col, name: only.source.name, values: [only.value] }];
  }
  const groups: { source: Source; values: string[] }[] = [];
  const byFile = new Map<string, Map<number, { source: Source; values: string[] }[]>>();
  for (const e of entries) {
    const { source } = e;
    let byLine = byFile.get(source.file);
    if (byLine === undefined) byFile.set(source.file, (byLine = new Map()));
    let onLine = byLine.get(source.line);
    if (onLine === undefined) byLine.set(source.line, (onLine = []));
    const group = onLine.find((g) => g.source.col === source.col && g.source.name === source.name);
    if (group) {
      group.values.push(e.value);
    } else {
      const made = { source, values: [e.value] };
      onLine.push(made);
      groups.push(made);
    }
  }
  return groups
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
