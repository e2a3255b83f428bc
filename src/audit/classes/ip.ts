/** Why IP-list values are written, and what their audit record lists. */
import { ipFingerprint, ipWriteKey } from '../../model/fingerprint.js';
import { planClassOf } from '../../plan/classes/index.js';
import type { PlanIpChange } from '../../plan/classes/ip.js';
import { ipEntriesFromPlan } from '../../plan/objects.js';
import { rememberedIpKey } from '../converged-memory.js';
import { MAX_LISTED, remembered, type AuditClass } from './class.js';

export const IP_AUDIT: AuditClass<PlanIpChange> = {
  cause(change) {
    if (change.action === 'adopt') return 'intent';
    if (change.action === 'delete') return change.objects.every((object) => object.reason === 'duplicate') ? 'drift' : 'intent';
    // A create may move values out of objects this plan deletes: it waits for their cause.
    return undefined;
  },

  causeAfter(change, why, context) {
    if (change.action !== 'create') return 'unknown';
    const entries = ipEntriesFromPlan(change.client, change.object);
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
    const old = live.ipEntries.find((entry) => ids.has(entry.id) && change.object.values.includes(entry.value));
    if (!old) return [];
    return [
      ...(old.expiresAt !== change.object.expires_at ? ['expires'] : []),
      ...((old.reason ?? '') !== (change.object.reason ?? '') ? ['reason'] : []),
    ];
  },

  listed(change, result) {
    if (change.action === 'delete') {
      return { ids: change.ids.slice(0, MAX_LISTED), ...(change.ids.length > MAX_LISTED ? { count: change.ids.length } : {}) };
    }
    const ids = result.ids ?? (change.action === 'adopt' ? change.ids : undefined);
    const { values } = change.object;
    return {
      values: values.slice(0, MAX_LISTED), ...(ids?.length ? { ids: ids.slice(0, MAX_LISTED) } : {}),
      ...(values.length > MAX_LISTED ? { count: values.length } : {}),
    };
  },
};
