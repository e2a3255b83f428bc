/**
 * A third object class, defined here and nowhere in src/: the banner, the
 * text a client's block page shows, kept by a scripted service of its own
 * (`BannerService`). It is made of the same parts as the rules and the IP
 * entries (a model, a change per action, each layer's side) and enters the
 * pipeline only through the registration points `registerBanners` calls.
 * The compiler does not know it: where its objects and changes meet code
 * typed for the built-in classes, `pipeline` says so once.
 */
import type { ApplyClass, BuiltInApplyClass } from '../../../src/apply/classes/class.js';
import { registerApplyClass } from '../../../src/apply/classes/index.js';
import type { ConcurrentCopy, CopyFinder } from '../../../src/apply/copy-finder.js';
import type { Outcome } from '../../../src/apply/execute.js';
import { runChange, type Indexed } from '../../../src/apply/run-change.js';
import type { ListingCheck } from '../../../src/apply/listing-check.js';
import { type AuditClass, type BuiltInAuditClass, remembered } from '../../../src/audit/classes/class.js';
import { registerAuditClass } from '../../../src/audit/classes/index.js';
import type { ChangeResult } from '../../../src/audit/change-result.js';
import type { BuiltInLiveClass, LiveClass } from '../../../src/live/classes/class.js';
import { registerLiveClass } from '../../../src/live/classes/index.js';
import { listingKey, type ListingKey } from '../../../src/live/listing-key.js';
import type { Change } from '../../../src/model/change.js';
import type { DeleteReason } from '../../../src/model/delete-reason.js';
import { registerObjectClass, type ObjectClass, type ObjectClassModels } from '../../../src/model/object-class.js';
import type { Source } from '../../../src/model/source.js';
import type { BuiltInPlanClass, PlanClassWithKeyedDiff } from '../../../src/plan/classes/class.js';
import { registerPlanClass } from '../../../src/plan/classes/index.js';
import type { KeyedDiff } from '../../../src/plan/diff-keyed.js';
import { compareAttributes } from '../../../src/plan/render/attributes.js';
import { registerClassBlocks } from '../../../src/plan/render/blocks.js';
import type { ChangeBlock } from '../../../src/plan/render/change-block.js';

export const BANNER = 'banner';
/** Where the desired and the live state hold banners. */
export const BANNERS = 'banners';

export interface DesiredBanner {
  readonly client: number;
  readonly name: string;
  readonly text: string;
  readonly source: Source;
}

export interface LiveBanner {
  readonly id: number;
  readonly client: number;
  readonly name: string;
  readonly text: string;
  /** The owner the banner was written by; none for one made by hand. */
  readonly owner?: string;
}

export type BannerChange =
  | { readonly kind: typeof BANNER; readonly action: 'create'; readonly banner: DesiredBanner }
  | { readonly kind: typeof BANNER; readonly action: 'update'; readonly banner: DesiredBanner; readonly live: LiveBanner }
  | { readonly kind: typeof BANNER; readonly action: 'delete'; readonly live: LiveBanner; readonly reason: DeleteReason };

/** A banner change as the plan document carries it. */
export interface PlanBannerChange {
  readonly kind: typeof BANNER;
  readonly action: BannerChange['action'];
  readonly client: number;
  readonly application: 'all';
  readonly name: string;
  readonly text?: string;
  readonly before?: string;
  readonly id?: number;
  readonly file?: string;
  readonly line?: number;
  readonly reason?: DeleteReason;
}

/** The banners' service: one listing per client, and a call per write. Every call is recorded. */
export class BannerService {
  private readonly banners = new Map<number, LiveBanner>();
  private nextId = 1;
  /** While set, the listing shows these instead: it lags the writes, as the service's listings do. */
  private shown: LiveBanner[] | undefined;
  readonly calls: string[] = [];

  /** The listing stops showing writes until `catchUp`. */
  lag(): void {
    this.shown = this.all();
  }

  catchUp(): void {
    this.shown = undefined;
  }

  seed(banner: Omit<LiveBanner, 'id'>): LiveBanner {
    const made = { ...banner, id: this.nextId++ };
    this.banners.set(made.id, made);
    return made;
  }

  async list(client: number): Promise<LiveBanner[]> {
    this.calls.push(`GET /banners?client=${client}`);
    return (this.shown ?? this.all()).filter((b) => b.client === client).map((b) => ({ ...b }));
  }

  async create(banner: Omit<LiveBanner, 'id'>): Promise<number> {
    this.calls.push(`POST /banners ${banner.name}`);
    return this.seed(banner).id;
  }

  async update(id: number, text: string): Promise<void> {
    this.calls.push(`PUT /banners/${id}`);
    const banner = this.banners.get(id);
    if (!banner) throw new Error(`no banner ${id}`);
    this.banners.set(id, { ...banner, text });
  }

  /** False when the banner was gone already. */
  async delete(id: number): Promise<boolean> {
    this.calls.push(`DELETE /banners/${id}`);
    return this.banners.delete(id);
  }

  all(): LiveBanner[] {
    return [...this.banners.values()].map((b) => ({ ...b }));
  }
}

/**
 * The one place the banner meets types written for the built-in classes: a
 * change the pipeline carries as a `Change`, a result it hands back.
 */
const pipeline = {
  kind: BANNER as unknown as ObjectClass,
  change: (change: BannerChange): Change => change as unknown as Change,
  listed: (banner: LiveBanner): ObjectClassModels[ObjectClass]['live'] => banner as unknown as ObjectClassModels[ObjectClass]['live'],
  item: (item: Indexed<BannerChange>): Indexed => item as unknown as Indexed,
};

const clientOf = (change: BannerChange): number => (change.action === 'delete' ? change.live.client : change.banner.client);
const nameOf = (change: BannerChange): string => (change.action === 'delete' ? change.live.name : change.banner.name);
const where = (source: Source): string => `${source.file}:${source.line}:${source.col}`;

const KEYED: KeyedDiff<DesiredBanner, LiveBanner, BannerChange> = {
  desiredKey: (banner) => banner.name,
  liveKey: (banner) => banner.name,
  desiredSource: (banner) => banner.source,
  client: (banner) => banner.client,
  id: (banner) => banner.id,
  owned: (banner, owner) => banner.owner === owner,
  same: (desired, live) => desired.text === live.text,
  create: (banner) => ({ kind: BANNER, action: 'create', banner }),
  update: (banner, live) => ({ kind: BANNER, action: 'update', banner, live }),
  delete: (live, reason) => ({ kind: BANNER, action: 'delete', live, reason }),
};

/** The banner's plan side: the core, and the keyed diff without which a class no cross-class pass reads is not diffed. */
const PLAN_CORE: PlanClassWithKeyedDiff<BannerChange, PlanBannerChange, DesiredBanner, LiveBanner> = {
  keyed: KEYED,
  digest: {
    label: BANNERS,
    desired: (hash, banner) => {
      hash.number(banner.client);
      hash.string(banner.name);
      hash.string(banner.text);
      return hash;
    },
    live: (hash, banner) => {
      hash.number(banner.id);
      hash.optionalString(banner.owner);
      hash.number(banner.client);
      hash.string(banner.name);
      hash.string(banner.text);
      return hash;
    },
  },
  order: 2,
  noun: 'banner',
  objectLabel: ({ id }) => `banner #${id}`,
  client: clientOf,
  sortTail: (change) => nameOf(change),
  firstSource: (change) => (change.action === 'create' ? change.banner.source : undefined),
  toPlanChange(change) {
    const base = { kind: BANNER, action: change.action, client: clientOf(change), application: 'all', name: nameOf(change) } as const;
    if (change.action === 'delete') return { ...base, id: change.live.id, before: change.live.text, reason: change.reason };
    const { file, line } = change.banner.source;
    return { ...base, text: change.banner.text, file, line, ...(change.action === 'update' ? { id: change.live.id, before: change.live.text } : {}) };
  },
  counts: (change) => ({ [change.action]: 1 }),
  guarded: (change) => ({ count: change.action === 'delete' && change.reason === 'not-declared' ? 1 : 0, moves: 0 }),
  describe: (change) => (change.action === 'delete'
    ? `delete banner ${change.live.name} #${change.live.id} of client ${change.live.client}`
    : `${change.action} banner ${change.banner.name} (${where(change.banner.source)})`),
  deletedIds: (change) => (change.action === 'delete' ? [change.live.id] : []),
  without: (change, heldIds) => (change.action !== 'create' && heldIds.has(change.live.id) ? undefined : change),
};

/** With the capabilities the built-in classes have too: the undeclared list, call counts, replacements, `--target`, the churn breaker. */
const PLAN: typeof PLAN_CORE & BuiltInPlanClass<BannerChange, PlanBannerChange, DesiredBanner, LiveBanner> = {
  ...PLAN_CORE,
  undeclared: (change) => (change.action === 'delete' && change.reason === 'not-declared' ? [{ id: change.live.id, name: change.live.name }] : []),
  calls: (changes) => changes.length,
  takesOver: () => [],
  deletesFirst: () => [],
  declaredBy: (change, declared) => (change.action !== 'delete' && declared(change.banner.source) ? change : undefined),
  writeKey: (change) => `${BANNER}|${clientOf(change)}|${nameOf(change)}`,
  writtenValues: () => [],
};

const SIGNS = { create: '+', update: '~', delete: '-' } as const;

function blocks(changes: readonly PlanBannerChange[]): ChangeBlock[] {
  return changes.map((change) => ({
    action: change.action,
    sign: SIGNS[change.action],
    kind: pipeline.kind,
    client: change.client,
    application: change.application,
    title: `banner ${change.name}${change.id !== undefined ? ` #${change.id}` : ''}`,
    detail: change.reason ? [change.reason] : [],
    sources: change.file !== undefined && change.line !== undefined ? [{ file: change.file, line: change.line }] : [],
    attributes: compareAttributes(
      new Map(change.text !== undefined ? [['text', change.text]] : []),
      change.before !== undefined ? new Map([['text', change.before]]) : undefined,
    ),
    count: 1,
  }));
}

/** The banners' writes, against their own service (the context's ServiceApi is the built-in classes'): the apply core. */
function applyCore(service: BannerService): ApplyClass<BannerChange> {
  return {
    async write(change, context): Promise<Outcome> {
      if (change.action === 'create') {
        const { client, name, text } = change.banner;
        const written = { client, name, text, owner: context.owner };
        const id = await service.create(written);
        context.journal?.recordCreated(pipeline.kind, [pipeline.listed({ ...written, id })]);
        return { status: 'applied', id };
      }
      if (change.action === 'update') {
        await service.update(change.live.id, change.banner.text);
        context.journal?.recordCreated(pipeline.kind, [pipeline.listed({ ...change.live, text: change.banner.text })]);
        return { status: 'applied', id: change.live.id };
      }
      throw new Error('a delete runs in the delete phase');
    },
    async runDeletes(items, run, blocked) {
      for (const item of items) {
        const change = item.change;
        if (change.action !== 'delete') continue;
        if (blocked.has(change.live.id)) {
          run.record({ index: item.index, change: pipeline.change(change), status: 'skipped', detail: 'its replacement failed' });
          continue;
        }
        await runChange(pipeline.item(item), run, async () => {
          const deleted = await service.delete(change.live.id);
          run.context.journal?.recordDeleted(pipeline.kind, [change.live.id]);
          return { status: deleted ? 'applied' : 'already-done' };
        });
      }
    },
  };
}

/** With the capabilities the built-in classes have too: references, the settle wait's listing check, the copy finder. */
function applySide(service: BannerService): BuiltInApplyClass<BannerChange> {
  return {
    ...applyCore(service),
    waitsFor: () => undefined,
    referencedId: () => undefined,
    listingCheck: () => listingCheck(service),
    copyFinder: (): CopyFinder<BannerChange> => ({ note: () => undefined, remove: async (): Promise<ConcurrentCopy[]> => [] }),
  };
}

/** What the banners' listing must show after the writes, read as the built-in classes' listings are (listing-reads.ts). */
function listingCheck(service: BannerService): ListingCheck<BannerChange> {
  const present = new Map<number, string>();
  const absent = new Set<number>();
  const clients = new Set<number>();
  return {
    expect(change, result: ChangeResult) {
      clients.add(clientOf(change));
      if (change.action === 'delete') absent.add(change.live.id);
      else if (result.id !== undefined) present.set(result.id, change.banner.text);
    },
    async shown(reads) {
      const lists = await Promise.all([...clients].map((client) => reads.read({ key: `${BANNERS}|${client}`, read: () => service.list(client) })));
      const listed = new Map(lists.flat().map((b) => [b.id, b.text]));
      return [...present].every(([id, text]) => listed.get(id) === text) && [...absent].every((id) => !listed.has(id));
    },
  };
}

/** What a write made, as its journal entry and the listing's mark both tell it. */
const writeKey = (banner: Pick<LiveBanner, 'client' | 'name' | 'text'>): string => `${banner.client}|${banner.name}|${banner.text}`;

/** The banners' listing, read as the built-in classes' are: the live core. */
function liveCore(service: BannerService): LiveClass<LiveBanner> {
  return {
    listingNames: [BANNERS],
    read(context) {
      const read: LiveBanner[] = [];
      return {
        listings: (client) => [async () => {
          const banners = await context.schedule(() => service.list(client));
          context.listed(listingKey(client, BANNERS), banners.length);
          read.push(...banners);
        }],
        result: () => [...read].sort((a, b) => a.id - b.id),
      };
    },
  };
}

/** With the capabilities the built-in classes have too: the listing sizes, the write journal. */
function liveSide(service: BannerService): BuiltInLiveClass<LiveBanner, DesiredBanner> {
  return {
    ...liveCore(service),
    listedAtLeast(declared) {
      const sizes = new Map<ListingKey, number>();
      for (const banner of declared) sizes.set(listingKey(banner.client, BANNERS), (sizes.get(listingKey(banner.client, BANNERS)) ?? 0) + 1);
      return sizes;
    },
    journal: {
      events: { 'created': 'banner-created', 'create-intent': 'banner-create-intent', 'deleted': 'banner-deleted' },
      event: (kind, at, objects) => ({ kind, at, banners: objects }),
      objects: (event) => event.banners as LiveBanner[],
      writeKey,
      listedWriteKey: (banner) => (banner.owner !== undefined ? writeKey(banner) : undefined),
      // A banner is written whole under its id: listed otherwise, it is the version before the write.
      sameId: () => 'older',
    },
  };
}

const declaredKey = (banner: Pick<DesiredBanner, 'client' | 'name' | 'text'>): string => `${banner.client}|${banner.name}|${banner.text}`;

/** What a banner's audit record says: the audit core. Without the converged memory, a create's or an update's cause cannot be told. */
const AUDIT_CORE: AuditClass<BannerChange> = {
  subject: (change) => ({
    client: clientOf(change),
    application: 'all',
    name: nameOf(change),
    ...(change.action !== 'delete' ? { file: change.banner.source.file, line: change.banner.source.line, col: change.banner.source.col } : {}),
  }),
  cause: (change) => (change.action === 'delete' ? (change.reason === 'duplicate' ? 'drift' : 'intent') : 'unknown'),
  listed: (change, result) => ({ id: change.action === 'delete' ? change.live.id : result.id ?? -1 }),
};

/** With the capabilities the built-in classes have too: the converged memory, follow-ups, replaced fields. */
const AUDIT: BuiltInAuditClass<BannerChange, DesiredBanner> = {
  ...AUDIT_CORE,
  declaredKey,
  cause(change, context) {
    if (change.action === 'delete') return AUDIT_CORE.cause(change, context);
    // Declared as it is the last time the account converged: the account moved away from it (drift); else the policies did (intent).
    return remembered((previous) => previous.keys[pipeline.kind].has(declaredKey(change.banner)), context.previous);
  },
  causeAfter: () => 'intent',
  replacedFields: () => [],
};

/**
 * The banner's registration points, in the order they are made: each a
 * function of src/ that adds one layer's side to that layer's table. The
 * returned function takes them all out again. `core`: each side with the
 * core alone (the plan's with the keyed diff it is diffed by), no capability.
 */
export function registerBanners(service: BannerService, sides: 'every capability' | 'core' = 'every capability'): {
  readonly points: readonly string[];
  readonly unregister: () => void;
} {
  const core = sides === 'core';
  const registered: [string, () => void][] = [
    ['model: registerObjectClass', registerObjectClass(BANNER, BANNERS)],
    ['live: registerLiveClass', registerLiveClass(BANNER, core ? liveCore(service) : liveSide(service))],
    ['plan: registerPlanClass', registerPlanClass(BANNER, core ? PLAN_CORE : PLAN)],
    ['render: registerClassBlocks', registerClassBlocks(BANNER, blocks)],
    ['apply: registerApplyClass', registerApplyClass(BANNER, core ? applyCore(service) : applySide(service))],
    ['audit: registerAuditClass', registerAuditClass(BANNER, core ? AUDIT_CORE : AUDIT)],
  ];
  return {
    points: registered.map(([point]) => point),
    unregister: () => registered.reverse().forEach(([, unregister]) => unregister()),
  };
}

export { pipeline as bannerPipeline };
