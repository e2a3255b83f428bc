/**
 * `GET /v4/clients/{clientid}/credential_stuffing/configs`: the account's
 * credential-stuffing rules in one call, split by `cred_stuff_type`. A normal
 * token's hint listing leaves these rules out; this is where clients read them.
 */
import type { Handler } from '../core.js';
import { invalid } from '../envelope.js';
import { isListed, listedVersion, type HintRecord } from '../store.js';
import { ruleKind } from './catalogue.js';
import { copy } from './handlers.js';

export const listCredentialConfigs: Handler = (request, core) => {
  const raw = request.params.clientid ?? '';
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw invalid('clientid', 'must be a positive integer');
  const clientid = Number(raw);
  core.authorize([clientid]);
  const now = core.nowMs();
  const lists: { default: HintRecord[]; custom: HintRecord[] } = { default: [], custom: [] };
  for (const stored of core.state.hints.values()) {
    const hint = listedVersion(stored, now);
    if (!isListed(stored, now) || hint.clientid !== clientid || !ruleKind(hint.type)?.credentials) continue;
    (hint.cred_stuff_type === 'default' ? lists.default : lists.custom).push(copy(hint));
  }
  for (const list of [lists.default, lists.custom]) list.sort((a, b) => a.id - b.id);
  return { body: lists };
};
