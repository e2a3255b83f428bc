/**
 * `PUT /v3/hint/{id}`: updates a rule in place, the whole mutable surface at
 * once (validate-update.ts: a field left out is reset). Answers the updated
 * record (`updated_at` bumped); listings keep showing the version before the update
 * until the listing lag in force at the write has passed. An unknown or
 * deleted id is a 404 (`{"id":{"error":"not found"}}`); a system rule is not
 * the client's to change (400). With the `updateErrorsAsHttp200` quirk every
 * error of this route is sent with HTTP 200 and the error in the envelope's
 * inner `status`, as the real service sometimes answers.
 */
import type { Handler, HandlerResult } from '../core.js';
import { HttpError, invalid } from '../envelope.js';
import { isListed, isLive, listedVersion, type HintRecord } from '../store.js';
import { ruleContext } from './context.js';
import { copy } from './handlers.js';
import { dropDueDuplicates } from './scope-duplicates.js';
import { validateHintUpdate } from './validate-update.js';

export const updateHint: Handler = (request, core) => {
  try {
    return update(request, core);
  } catch (error) {
    if (!(error instanceof HttpError) || !core.config.updateErrorsAsHttp200) throw error;
    return { httpStatus: 200, status: error.status, body: error.body };
  }
};

const update: Handler = (request, core): HandlerResult => {
  dropDueDuplicates(core);
  const raw = request.params.id ?? '';
  const stored = /^\d{1,15}$/.test(raw) ? core.state.hints.get(Number(raw)) : undefined;
  if (!stored || !isLive(stored)) throw new HttpError(404, { id: { error: 'not found' } });
  const current = stored.record;
  core.authorize([current.clientid]);
  if (current.system) throw invalid('id', 'is a system rule: it belongs to the service');
  const patch = validateHintUpdate(current, request.body, ruleContext(core));

  const now = core.nowMs();
  const lag = core.config.listingLagMs;
  if (lag > 0 && isListed(stored, now)) stored.previous = { record: listedVersion(stored, now), untilMs: now + lag };
  const record: HintRecord = { ...current, ...patch, updated_at: core.nowSeconds() };
  // A mutable field the body left out that has no default is dropped (listed as null), as the service's probe saw.
  for (const [name, value] of Object.entries(patch)) if (value === undefined) record[name] = null;
  stored.record = record;
  core.changed();
  return { body: copy(stored.record), wrote: true };
};
