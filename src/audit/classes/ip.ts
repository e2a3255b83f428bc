/** Why IP-list values are written, and what their audit record lists. */
import { ipFingerprint, ipWriteKey } from '../../model/fingerprint.js';
import { planClassOf } from '../../plan/classes/index.js';
import type { IpChange } from '../../model/change.js';
import { firstOf } from '../../plan/classes/ip.js';
import { plainIpEntry } from '../../model/ip.js';
import { poolsApplication, unionApplication } from '../../plan/objects.js';
import { rememberedIpKey } from '../converged-memory.js';
import { MAX_LISTED, remembered, type AuditClass } from './class.js';

export const IP_AUDIT: AuditClass<IpChange> = {
  subject(change) {
    if (change.action === 'delete') {
      return { client: change.client, application: unionApplication(change.objects.flatMap((o) => [...o.entries, ...o.moved])) };
    }
    const first = firstOf(change.entries);
    return { client: change.client, application: poolsApplication(change.pools), name: first.name, file: first.file, line: first.line, col: first.col };
  },

  cause(change) {
    if (change.action === 'adopt') return 'intent';
    if (change.action === 'delete') return change.objects.every((object) => object.reason === 'duplicate') ? 'drift' : 'intent';
    // A create may move values out of objects this plan deletes: it waits for their cause.
    return undefined;
  },

  causeAfter(change, why, context) {
    if (change.action !== 'create') return 'unknown';
    const entries = change.entries.map(plainIpEntry);
    const replaced = (change.replaces ?? []).flatMap((id) => context.ipById.get(id) ?? []);
    const values = new Set(entries.map((entry) => entry.value));
    const fingerprint = entries[0] ? ipFingerprint(entries[0]) : undefined;
    const sameValues = replaced.filter((entry) => values.has(entry.value));
    // The same value written from another declaration (expiry, reason): the declaration changed.
    if (sameValues.some((entry) => entry.fingerprint !== undefined && entry.fingerprint !== fingerprint)) return 'intent';
    if (replaced.length > 0) {
      // Moved out of objects this plan deletes: for the reason they go.
      const ids = new Set(change.replaces);
      const deletes = context.plan.changes.flatMap((c, i) =>
        (c.kind === change.kind && planClassOf(c).deletedIds(c).some((id) => ids.has(id)) ? [why[i]] : []));
      if (deletes.includes('intent')) return 'intent';
      if (deletes.includes('drift')) return 'drift';
    }
    const keys = entries.map((entry) => rememberedIpKey(ipWriteKey(entry)));
    return remembered((p) => keys.every((key) => p.ip.has(key)), context.previous);
  },

  replacedFields(change, live) {
    if (change.action !== 'create' || !change.replaces?.length) return [];
    const ids = new Set(change.replaces);
    const values = new Set(change.entries.map((e) => e.value));
    const old = live.ipEntries.find((entry) => ids.has(entry.id) && values.has(entry.value));
    if (!old) return [];
    return [
      ...(old.expiresAt !== change.expiresAt ? ['expires'] : []),
      ...((old.reason ?? '') !== (change.reason ?? '') ? ['reason'] : []),
    ];
  },

  listed(change, result) {
    if (change.action === 'delete') {
      const ids = change.objects.map((o) => o.id);
      return { ids: ids.slice(0, MAX_LISTED), ...(ids.length > MAX_LISTED ? { count: ids.length } : {}) };
    }
    const ids = result.ids ?? (change.action === 'adopt' ? change.from : undefined);
    const values = change.entries.map((e) => e.value);
    return {
      values: values.slice(0, MAX_LISTED), ...(ids?.length ? { ids: ids.slice(0, MAX_LISTED) } : {}),
      ...(values.length > MAX_LISTED ? { count: values.length } : {}),
    };
  },
};
