/**
 * What every handler works on: the state, the realism switches, the clock and
 * the account check. Handlers are synchronous over it, so no two requests ever
 * interleave inside a state change.
 */
import { forbidden } from './envelope.js';
import type { EmulatorConfig } from './options.js';
import type { EmulatorState } from './store.js';
import { DemoData } from './demo/data.js';
import type { ApplicationRecord } from './applications/record.js';
import type { StoredHit } from './hits/records.js';

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Values of the route's `{name}` segments. */
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export interface HandlerResult {
  /** The envelope's status (and the HTTP status unless `httpStatus` says otherwise). */
  readonly status?: number;
  /** The HTTP status when it differs from the envelope's (a 200 carrying an inner error). */
  readonly httpStatus?: number;
  readonly body: unknown;
  /** The call changed persisted state: flush before answering. */
  readonly wrote?: boolean;
}

export type Handler = (request: ApiRequest, core: EmulatorCore) => HandlerResult;

export class EmulatorCore {
  readonly demo = new DemoData();
  /** Seeded hits per account (not persisted: like the demo data, they are what a test or demo starts with). */
  readonly hits = new Map<number, StoredHit[]>();
  /** Seeded applications per account, beside the default and sample ones (not persisted, like the hits). */
  readonly applications = new Map<number, ApplicationRecord[]>();
  /** Counts the writes: what was derived from the state at one revision holds until the next (or until a time passes). */
  private writes = 0;

  constructor(
    public state: EmulatorState,
    public config: EmulatorConfig,
    private readonly baseNow: () => number,
    private readonly allowedClients: ReadonlySet<number> | undefined,
    private readonly onWrite: () => void,
  ) {}

  nowMs(): number {
    return this.baseNow() + this.state.clockOffsetMs;
  }

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** 403 unless the token may act on every one of these accounts. */
  authorize(clientIds: readonly number[]): void {
    if (!this.allowedClients) return;
    for (const id of clientIds) if (!this.allowedClients.has(id)) throw forbidden();
  }

  /** Records that persisted state changed. Every change to the state goes through here. */
  changed(): void {
    this.writes++;
    this.onWrite();
  }

  get revision(): number {
    return this.writes;
  }
}
