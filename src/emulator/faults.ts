/**
 * Scripted faults: "the next N calls of this route fail this way", so tests can
 * prove the client retries, gives up, or copes with a write it cannot confirm.
 */
import { SHIFTABLE_LISTINGS } from './listing-shift.js';

export const FAULT_KINDS = [
  'status', 'reset', 'hang', 'reset-after-write', 'status-after-write', 'delete-after-list', 'update-after-list', 'oversize', 'gzip-bomb', 'echo-token',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  /** `"METHOD /path"` as in the call log (e.g. `"POST /v1/objects/hint/create"`), or `"*"`. */
  route: string;
  /**
   * `status`: answer `status` in the envelope; `reset`: destroy the socket without
   * answering; `hang`: never answer (until the client or close() gives up);
   * `reset-after-write`: perform the call, then destroy the socket unanswered;
   * `status-after-write`: perform the call, then answer `status` anyway (a
   * gateway that timed out on a backend that finished the work);
   * `delete-after-list` (a listing route only): answer the page, then delete its
   * first object, so the rest of the listing shifts back by one between two
   * page calls (see listing-shift.ts).
   * `update-after-list` (a listing route only): answer the page, then change
   * its first object as another writer would (a rule updated in place, an IP
   * object replaced; see listing-shift.ts).
   * `oversize`: answer 200 with an envelope of `bytes` bytes, streamed without a
   * Content-Length; `gzip-bomb`: answer 200 gzip-encoded, a few hundred KiB that
   * unzip to `bytes` bytes; `echo-token`: answer `status` (default 401) with a
   * body that repeats the request's token and secret headers, as a careless
   * proxy or server does.
   */
  kind: FaultKind;
  /** For `status`: e.g. 423, 429, 500, 503. */
  status?: number;
  /** For `status` 429 (or any): sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** Overrides the default envelope body of a `status` fault. */
  body?: unknown;
  /** For `oversize` and `gzip-bomb`: the size of the (unzipped) answer. Default DEFAULT_FAULT_BYTES. */
  bytes?: number;
  /** How many matching calls it hits. Default 1. */
  count?: number;
}

export interface ActiveFault extends FaultSpec {
  count: number;
}

/** Well above any client's sane bound on an answer. */
export const DEFAULT_FAULT_BYTES = 256 * 1024 * 1024;

export const FAULT_BODIES: Readonly<Record<number, string>> = {
  423: 'Rules updates have been locked due to backup/restoring rules snapshot',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** Checks a fault from the admin API or control; returns an error message or undefined. */
export function faultProblem(spec: unknown): string | undefined {
  if (typeof spec !== 'object' || spec === null) return 'a fault must be an object';
  const f = spec as Record<string, unknown>;
  if (typeof f.route !== 'string' || f.route === '') return 'route must be "METHOD /path" or "*"';
  if (!(FAULT_KINDS as readonly unknown[]).includes(f.kind)) return `kind must be one of: ${FAULT_KINDS.join(', ')}`;
  if ((f.kind === 'status' || f.kind === 'status-after-write' || (f.kind === 'echo-token' && f.status !== undefined)) && !(Number.isInteger(f.status) && (f.status as number) >= 400 && (f.status as number) <= 599)) {
    return 'a status fault needs a status between 400 and 599';
  }
  if ((f.kind === 'delete-after-list' || f.kind === 'update-after-list') && !SHIFTABLE_LISTINGS.includes(f.route)) {
    return `a ${f.kind} fault needs a listing route: ${SHIFTABLE_LISTINGS.join(' or ')}`;
  }
  if (f.count !== undefined && !(Number.isInteger(f.count) && (f.count as number) > 0)) return 'count must be a positive integer';
  if (f.bytes !== undefined && !(Number.isSafeInteger(f.bytes) && (f.bytes as number) > 64)) return 'bytes must be an integer above 64';
  if (f.retryAfterSeconds !== undefined && !(typeof f.retryAfterSeconds === 'number' && f.retryAfterSeconds >= 0)) {
    return 'retryAfterSeconds must be a non-negative number';
  }
  return undefined;
}

export class FaultScript {
  private faults: ActiveFault[] = [];

  add(spec: FaultSpec): void {
    const problem = faultProblem(spec);
    if (problem) throw new TypeError(`invalid fault: ${problem}`);
    this.faults.push({ ...spec, count: spec.count ?? 1 });
  }

  /** The first fault matching the route, with one use consumed; faults run in the order added. */
  take(route: string): ActiveFault | undefined {
    const index = this.faults.findIndex((f) => f.route === '*' || f.route === route);
    const fault = this.faults[index];
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.faults.splice(index, 1);
    return fault;
  }

  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}
