/** Rules (hints) and condition sets (actions): `/v1/objects/hint*` and `/v1/objects/action`. */
import type { EmulatorCore, Handler } from '../core.js';
import { invalid } from '../envelope.js';
import { isListed, isLive, listedVersion, markDeleted, purgeTombstones, type HintRecord, type Stored } from '../store.js';
import { optionalBool, optionalCount, optionalIdList, requireIdList, requireRecord } from '../validate.js';
import { ruleKind } from './catalogue.js';
import { conditionSetKey } from './conditions.js';
import { ruleContext } from './context.js';
import { ensureDefaultControls } from './default-controls.js';
import { dropDueDuplicates, scheduleScopeDuplicateDrop } from './scope-duplicates.js';
import { validateHintCreate, type HintDraft } from './validate.js';

export const MAX_HINT_PAGE = 1000;
/** Ids per batch delete (the vendor's client sends up to this many). */
export const MAX_DELETE_IDS = 1000;
const ORDER_FIELDS = ['id', 'updated_at', 'create_time'] as const;

export const listHints: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const clients = requireIdList(filter.clientid, ['filter', 'clientid']);
  core.authorize(clients);
  const actionIds = optionalIdList(filter.actionid, ['filter', 'actionid']);
  const ids = optionalIdList(filter.id, ['filter', 'id']);
  const types = optionalStrings(filter.type, ['filter', 'type']);
  const orderBy = body.order_by ?? 'id';
  if (typeof orderBy !== 'string' || !(ORDER_FIELDS as readonly string[]).includes(orderBy)) {
    throw invalid('order_by', `must be one of: ${ORDER_FIELDS.join(', ')}`);
  }
  const desc = optionalBool(body.order_desc, 'order_desc', false);
  const limit = optionalCount(body.limit, 'limit', { fallback: 50, min: 1, max: MAX_HINT_PAGE });
  const offset = optionalCount(body.offset, 'offset', { fallback: 0 });

  dropDueDuplicates(core);
  ensureDefaultControls(core, clients);
  const now = core.nowMs();
  purgeTombstones(core.state.hints, now);
  const rows: HintRecord[] = [];
  const credentialsListed = core.config.elevatedToken;
  for (const stored of core.state.hints.values()) {
    const hint = listedVersion(stored, now);
    if (!isListed(stored, now) || !clients.includes(hint.clientid)) continue;
    if (!credentialsListed && ruleKind(hint.type)?.credentials) continue;
    if (actionIds && !actionIds.includes(hint.actionid)) continue;
    if (ids && !ids.includes(hint.id)) continue;
    if (types && !types.includes(hint.type)) continue;
    rows.push(hint);
  }
  const field = orderBy as (typeof ORDER_FIELDS)[number];
  rows.sort((a, b) => (a[field] - b[field] || a.id - b.id) * (desc ? -1 : 1));
  return { body: rows.slice(offset, offset + limit).map(copy) };
};

export const createHint: Handler = (request, core) => {
  dropDueDuplicates(core);
  const draft = validateHintCreate(request.body, ruleContext(core));
  core.authorize([draft.clientid]);
  const kind = ruleKind(draft.type);
  const sameCounter = kind?.counter ? liveCounter(core, draft) : undefined;
  if (sameCounter) return { body: copy(sameCounter), wrote: false };
  const { state } = core;
  const nowSec = core.nowSeconds();
  const key = conditionSetKey(draft.clientid, draft.action);
  let action = state.actions.get(key);
  if (!action) {
    action = { id: state.nextIds.action++, clientid: draft.clientid, conditions: draft.action, updated_at: nowSec };
    state.actions.set(key, action);
  }
  const id = state.nextIds.hint++;
  const hint: HintRecord = {
    id,
    actionid: action.id,
    clientid: draft.clientid,
    type: draft.type,
    action: draft.action,
    point: draft.point,
    attack_type: null,
    regex: null,
    regex_id: null,
    mode: null,
    comment: draft.comment,
    validated: draft.validated,
    variativity_disabled: draft.variativity_disabled,
    active: draft.active,
    title: draft.title,
    set: draft.set,
    system: false,
    create_time: nowSec,
    updated_at: nowSec,
    ...draft.fields,
    ...kind?.readOnly?.(draft.type, id),
    ...(kind?.hasRegexId ? { regex_id: state.nextIds.regex++ } : {}),
  };
  const stored: Stored<HintRecord> = { record: hint, listedFromMs: core.nowMs() + core.config.listingLagMs };
  state.hints.set(hint.id, stored);
  scheduleScopeDuplicateDrop(core, stored);
  core.changed();
  return { body: copy(hint), wrote: true };
};

/**
 * Always 200: the body lists what was deleted, `[]` when nothing was (already
 * gone). System rules, the account's default controls and counters belong to
 * the service: they are never deleted, and so never listed as deleted.
 */
export const deleteHints: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const clients = requireIdList(filter.clientid, ['filter', 'clientid']);
  core.authorize(clients);
  const ids = requireIdList(filter.id, ['filter', 'id']);
  if (ids.length > MAX_DELETE_IDS) throw invalid(['filter', 'id'], `must have at most ${MAX_DELETE_IDS} ids`);
  dropDueDuplicates(core);
  const deleted: HintRecord[] = [];
  for (const id of ids) {
    const stored = core.state.hints.get(id);
    if (!stored || !isLive(stored) || !clients.includes(stored.record.clientid) || !clientMayDelete(stored)) continue;
    deleted.push(copy(stored.record));
    markDeleted(core.state.hints, id, core.nowMs(), core.config.listingLagMs);
  }
  if (deleted.length > 0) core.changed();
  return { body: deleted, wrote: deleted.length > 0 };
};

export const listActions: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const clients = requireIdList(filter.clientid, ['filter', 'clientid']);
  core.authorize(clients);
  const ids = optionalIdList(filter.id, ['filter', 'id']);
  const limit = optionalCount(body.limit, 'limit', { fallback: 50, min: 1, max: MAX_HINT_PAGE });
  const offset = optionalCount(body.offset, 'offset', { fallback: 0 });
  const rows = [...core.state.actions.values()]
    .filter((a) => clients.includes(a.clientid) && (!ids || ids.includes(a.id)))
    .sort((a, b) => a.id - b.id);
  return { body: rows.slice(offset, offset + limit).map((a) => structuredClone(a)) };
};

function clientMayDelete(stored: Stored<HintRecord>): boolean {
  return !stored.record.system && !stored.serviceMade && !ruleKind(stored.record.type)?.counter;
}

/** A live counter of the draft's type on its condition set: the service gives it back rather than make another. */
function liveCounter(core: EmulatorCore, draft: HintDraft): HintRecord | undefined {
  const key = conditionSetKey(draft.clientid, draft.action);
  for (const stored of core.state.hints.values()) {
    const hint = stored.record;
    if (isLive(stored) && hint.type === draft.type && conditionSetKey(hint.clientid, hint.action) === key) return hint;
  }
  return undefined;
}

function optionalStrings(value: unknown, path: readonly string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string')) throw invalid(path, 'must be strings');
  return list as string[];
}

export function copy(hint: HintRecord): HintRecord {
  return structuredClone(hint);
}
