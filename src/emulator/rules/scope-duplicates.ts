/**
 * The one-per-scope duplicate quirk (switch `dropScopeDuplicates`, default
 * off). For types the catalogue marks one per scope (`service_mode`,
 * `api_abuse_mode`, `overlimit_res_settings`), a rule created while a live
 * rule of the same type and account already sits on the same condition set
 * (same `actionid`) is a duplicate the service resolves on its own: it drops
 * the newer one once the listing lag in force at the create has passed (at
 * the next call when the lag is 0). The decision is taken at create time, so
 * a create-then-delete "replacement" leaves the scope with no rule at all.
 */
import type { EmulatorCore } from '../core.js';
import { isLive, type HintRecord, type Stored } from '../store.js';
import { ruleKind } from './catalogue.js';

/** Marks a just-created rule for dropping when it duplicates a live one of its scope. */
export function scheduleScopeDuplicateDrop(core: EmulatorCore, created: Stored<HintRecord>): void {
  if (!core.config.dropScopeDuplicates) return;
  const hint = created.record;
  if (!ruleKind(hint.type)?.onePerScope) return;
  for (const other of core.state.hints.values()) {
    const rival = other.record;
    if (other === created || !isLive(other) || other.dropAtMs !== undefined) continue;
    if (rival.clientid === hint.clientid && rival.type === hint.type && rival.actionid === hint.actionid) {
      created.dropAtMs = core.nowMs() + core.config.listingLagMs;
      return;
    }
  }
}

/** Carries out the drops that are due: the rule is gone from writes and listings alike. */
export function dropDueDuplicates(core: EmulatorCore): void {
  const now = core.nowMs();
  let dropped = false;
  for (const [id, stored] of core.state.hints) {
    if (stored.dropAtMs === undefined || stored.dropAtMs > now || !isLive(stored)) continue;
    core.state.hints.delete(id);
    dropped = true;
  }
  if (dropped) core.changed();
}
