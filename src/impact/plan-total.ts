/**
 * The plan's total beside each change's own line: what the whole plan,
 * against the live configuration, does to the recorded requests, for what
 * filtering modes and IP lists decide (a change's line is its effect alone;
 * together, a deny entry and a mode switch can do more, or less, than the sum).
 */
import type { Change } from '../model/change.js';
import type { LiveState } from '../model/state.js';
import type { ImpactTotal } from '../plan/model.js';
import { FilteringModes } from './modes.js';
import type { RequestIndex, SeenRequest } from './requests.js';
import { StopCheck } from './stop-check.js';

export function planTotal(changes: readonly Change[], live: LiveState, seen: RequestIndex, signal?: AbortSignal): ImpactTotal {
  const modes = new FilteringModes(live, new StopCheck(signal));
  const newly: SeenRequest[] = [];
  const released: SeenRequest[] = [];
  for (const client of seen.clientIds()) {
    const total = modes.total(client, seen.client(client), changes);
    newly.push(...total.newly);
    released.push(...total.released);
  }
  return { newlyBlocked: counted(newly), noLongerBlocked: counted(released) };
}

function counted(requests: readonly SeenRequest[]): { readonly requests: number; readonly ips: number } {
  const ips = new Set<string>();
  for (const request of requests) if (request.ip !== undefined) ips.add(request.ip);
  return { requests: requests.length, ips: ips.size };
}
