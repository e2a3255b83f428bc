/** Why IP-list values are written, and what their audit record lists. */
import { ipFingerprint, ipWriteKey, uncachedIpWriteKey } from '../../model/ip-fingerprint.js';
import { planClassOf } from '../../plan/classes/index.js';
import type { IpChange, CreateIp, AdoptIp } from '../../model/ip-change.js';
import { onAction } from '../../model/by-action.js';
import type { WriteCause } from '../write-cause.js';
import { firstOf } from '../../plan/classes/ip.js';
import { plainIpEntry, type IpEntry } from '../../model/ip.js';
import { unionApplication, poolsApplication } from '../../plan/classes/ip-document.js';
import { rememberedIpKey } from '../converged-memory.js';
import { MAX_LISTED, remembered, type BuiltInAuditClass, type Listed, type Subject } from './class.js';

/** Who and where, by action: what a create or adoption writes names its first line. */
function declared(change: CreateIp | AdoptIp): Subject {
  const first = firstOf(change.entries);
  return { client: change.client, application: poolsApplication(change.pools), name: first.name, file: first.file, line: first.line, col: first.col };
}

/** What a create or adoption lists: its values, and the ids the answer (or the adoption) names. */
function listedValues(change: CreateIp | AdoptIp, ids: readonly number[] | undefined): Listed {
  const values = change.entries.map((e) => e.value);
  return {
    values: values.slice(0, MAX_LISTED), ...(ids?.length ? { ids: ids.slice(0, MAX_LISTED) } : {}),
    ...(values.length > MAX_LISTED ? { count: values.length } : {}),
  };
}

export const IP_AUDIT: BuiltInAuditClass<IpChange, IpEntry> = {
  // A SHA-256 per declared value, not kept on the entry: a daemon computes it only when its policy files changed.
  declaredKey: (entry) => rememberedIpKey(uncachedIpWriteKey(entry)),

  subject: (change) => onAction(change, {
    create: declared,
    adopt: declared,
    delete: (c) => ({ client: c.client, application: unionApplication(c.objects.flatMap((o) => [...o.entries, ...o.moved])) }),
  }),

  cause: (change) => onAction<IpChange, WriteCause | undefined>(change, {
    // A create may move values out of objects this plan deletes: it waits for their cause.
    create: () => undefined,
    adopt: () => 'intent',
    delete: (c) => (c.objects.every((object) => object.reason === 'duplicate') ? 'drift' : 'intent'),
  }),

  causeAfter: (change, why, context) => onAction<IpChange, WriteCause>(change, {
    create(c) {
      const entries = c.entries.map(plainIpEntry);
      const replaced = (c.replaces ?? []).flatMap((id) => context.liveById.ip.get(id) ?? []);
      const values = new Set(entries.map((entry) => entry.value));
      const fingerprint = entries[0] ? ipFingerprint(entries[0]) : undefined;
      const sameValues = replaced.filter((entry) => values.has(entry.value));
      // The same value written from another declaration (expiry, reason): the declaration changed.
      if (sameValues.some((entry) => entry.fingerprint !== undefined && entry.fingerprint !== fingerprint)) return 'intent';
      if (replaced.length > 0) {
        // Moved out of objects this plan deletes: for the reason they go.
        const ids = new Set(c.replaces);
        const deletes = context.plan.changes.flatMap((other, i) =>
          (other.kind === c.kind && planClassOf(other).deletedIds(other).some((id) => ids.has(id)) ? [why[i]] : []));
        if (deletes.includes('intent')) return 'intent';
        if (deletes.includes('drift')) return 'drift';
      }
      const keys = entries.map((entry) => rememberedIpKey(ipWriteKey(entry)));
      return remembered((p) => keys.every((key) => p.keys.ip.has(key)), context.previous);
    },
    // Told at once (`cause`): never asked after.
    adopt: () => 'unknown',
    delete: () => 'unknown',
  }),

  replacedFields: (change, live) => onAction(change, {
    create(c) {
      if (!c.replaces?.length) return [];
      const ids = new Set(c.replaces);
      const values = new Set(c.entries.map((e) => e.value));
      const old = live.ipEntries.find((entry) => ids.has(entry.id) && values.has(entry.value));
      if (!old) return [];
      return [
        ...(old.expiresAt !== c.expiresAt ? ['expires'] : []),
        ...((old.reason ?? '') !== (c.reason ?? '') ? ['reason'] : []),
      ];
    },
    adopt: () => [],
    delete: () => [],
  }),

  listed: (change, result) => onAction<IpChange, Listed>(change, {
    create: (c) => listedValues(c, result.ids),
    adopt: (c) => listedValues(c, result.ids ?? c.from),
    delete(c) {
      const ids = c.objects.map((o) => o.id);
      return { ids: ids.slice(0, MAX_LISTED), ...(ids.length > MAX_LISTED ? { count: ids.length } : {}) };
    },
  }),
};
