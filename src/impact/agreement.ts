/**
 * The model checks itself: how often its verdict for the live configuration
 * (would the service block this request?) is the one the service recorded,
 * over the requests recorded after the client's configuration last changed
 * (the latest of its rules' and IP-list objects' times, as listed): a request
 * recorded before saw another configuration, and is not a test of this one.
 * Below AGREEMENT_THRESHOLD the impact is marked unreliable, and
 * `--impact-limit` treats it as it treats an incomplete one.
 */
import type { LiveState } from '../model/state.js';
import type { ImpactAgreement } from '../plan/model.js';
import { FilteringModes } from './modes.js';
import type { RequestIndex } from './requests.js';
import { StopCheck } from './stop-check.js';

/**
 * The share of checked verdicts the model must match to be relied on.
 * Chosen, not measured: below 95%, one request in twenty reads differently
 * from what the service did, more than a change's count can absorb unsaid.
 */
export const AGREEMENT_THRESHOLD = 0.95;

/** How many disagreeing request ids the outputs carry, for a person to look up. */
const SAMPLES = 10;

export function modelAgreement(live: LiveState, seen: RequestIndex, signal?: AbortSignal): ImpactAgreement {
  const modes = new FilteringModes(live, new StopCheck(signal));
  let checked = 0;
  let agree = 0;
  const samples: string[] = [];
  for (const client of seen.clientIds()) {
    // Without a time in the listings, nothing says when the configuration changed: every request is checked.
    const since = live.changedAt?.get(client) ?? Number.NEGATIVE_INFINITY;
    const found = modes.agreement(client, seen.client(client), since, SAMPLES - samples.length);
    checked += found.checked;
    agree += found.agree;
    samples.push(...found.samples);
  }
  // In id order: the outputs are byte-stable whatever order the listing gave.
  return { checked, agree, samples: samples.sort() };
}

/** Whether the impact's counts can be relied on: nothing to check, or enough agreement. */
export function agreementReliable(agreement: ImpactAgreement): boolean {
  return agreement.checked === 0 || agreement.agree / agreement.checked >= AGREEMENT_THRESHOLD;
}
