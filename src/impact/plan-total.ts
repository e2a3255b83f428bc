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
import type { ClientRequests, RequestRef } from './client-requests.js';
import type { RequestIndex } from './requests.js';
import { StopCheck } from './stop-check.js';

export function planTotal(changes: readonly Change[], live: LiveState, seen: RequestIndex, signal?: AbortSignal): ImpactTotal {
  const modes = new FilteringModes(live, new StopCheck(signal));
  const newly = new Counted();
  const released = new Counted();
  for (const client of seen.clientIds()) {
    const requests = seen.client(client);
    const total = modes.total(client, requests, changes);
    newly.add(total.newly, requests);
    released.add(total.released, requests);
  }
  return { newlyBlocked: newly.figures(), noLongerBlocked: released.figures() };
}

/** Requests and their distinct source addresses, over the clients. */
class Counted {
  private requests = 0;
  private readonly ips = new Set<string>();

  add(found: readonly RequestRef[], requests: ClientRequests): void {
    this.requests += found.length;
    for (const request of found) {
      const ip = requests.source(request).ip;
      if (ip !== undefined) this.ips.add(ip);
    }
  }

  figures(): { readonly requests: number; readonly ips: number } {
    return { requests: this.requests, ips: this.ips.size };
  }
}
