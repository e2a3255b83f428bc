/** What an emulator instance is started with, and the part of it that can change at run time. */
import type { Logger } from '../log.js';

export const IP_GRANULARITIES = ['per-value', 'per-request'] as const;
/**
 * How a multi-value `POST /v4/ip_rules` is stored: one object per value, or one
 * object holding every value of the request. The real service's choice is not
 * documented, so clients must cope with both.
 */
export type IpGranularity = (typeof IP_GRANULARITIES)[number];

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Required value of `X-ServiceApi-Token`; also guards `/__admin/`. */
  token: string;
  /** When set, `X-ServiceApi-Secret` must carry it. */
  secret?: string;
  /** Account ids the token may act on (others get 403); undefined = any id. */
  clients?: readonly number[];
  /** JSON file the state persists to; undefined keeps everything in memory. */
  dataFile?: string;
  /** Writes show in listings only this long after they happened. Default 0. */
  listingLagMs?: number;
  /** Default 'per-value'. */
  ipGranularity?: IpGranularity;
  /** Every API call is answered this much later (admin calls are not). Default 0. */
  latencyMs?: number;
  /** See EmulatorConfig.undocumentedRewrites. Default false. */
  undocumentedRewrites?: boolean;
  /** See EmulatorConfig.dropScopeDuplicates. Default false. */
  dropScopeDuplicates?: boolean;
  /** See EmulatorConfig.updateErrorsAsHttp200. Default false. */
  updateErrorsAsHttp200?: boolean;
  /** See EmulatorConfig.extendedToken. Default true. */
  extendedToken?: boolean;
  /** See EmulatorConfig.elevatedToken. Default false. */
  elevatedToken?: boolean;
  /** See EmulatorConfig.defaultControls. Default false. */
  defaultControls?: boolean;
  /** See EmulatorConfig.demoTraffic. Default true. */
  demoTraffic?: boolean;
  /** See EmulatorConfig.sampleApplications. Default true. */
  sampleApplications?: boolean;
  /** Larger request bodies get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  logger?: Logger;
  /** Clock in milliseconds; Date.now by default. `advanceClock` adds to it. */
  now?: () => number;
}

/** The realism switches, changeable while running (control or `/__admin/config`). */
export interface EmulatorConfig {
  listingLagMs: number;
  ipGranularity: IpGranularity;
  /** Injected per-call latency (benchmarks); absent means 0. */
  latencyMs?: number;
  /**
   * Store some fields differently from what was sent, as no documentation
   * says: `[method]` condition values upper-cased, IP `expired_at` rounded
   * down to a whole minute. Clients must cope with rewrites they do not know.
   */
  undocumentedRewrites: boolean;
  /**
   * A newer rule of a one-per-scope type (`service_mode`, ...) on the same
   * condition set as a live one is dropped by the service shortly after its
   * create (rules/scope-duplicates.ts).
   */
  dropScopeDuplicates: boolean;
  /** Errors of `PUT /v3/hint/{id}` come with HTTP 200 and the error status inside the envelope. */
  updateErrorsAsHttp200: boolean;
  /** The token is an extended admin token; without one, writes of `disable_stamp` rules get 403. */
  extendedToken: boolean;
  /**
   * The token has elevated rights: the hint listing then also returns the
   * credential-stuffing rules, which a normal token reads only from
   * `/v4/clients/{id}/credential_stuffing/configs`.
   */
  elevatedToken: boolean;
  /** Every account holds the service's default abuse controls (rules/default-controls.ts). */
  defaultControls: boolean;
  /**
   * Every account lists the demo hits (hits/demo.ts): a week of attacks on the
   * sample applications and two false positives. Off, an account lists only
   * the hits seeded into it (tests that count exactly).
   */
  demoTraffic: boolean;
  /**
   * Every account lists the sample applications (1, 7 `shop`, 8 `api`, 9)
   * beside its default one (-1) and those seeded. Off, only the default and
   * the seeded ones (tests of an application the account does not have).
   */
  sampleApplications: boolean;
}

/** The boolean switches, checked alike. */
const SWITCHES = ['undocumentedRewrites', 'dropScopeDuplicates', 'updateErrorsAsHttp200', 'extendedToken', 'elevatedToken', 'defaultControls', 'demoTraffic', 'sampleApplications'] as const;

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export function initialConfig(options: EmulatorOptions): EmulatorConfig {
  return {
    listingLagMs: options.listingLagMs ?? 0,
    ipGranularity: options.ipGranularity ?? 'per-value',
    undocumentedRewrites: options.undocumentedRewrites ?? false,
    dropScopeDuplicates: options.dropScopeDuplicates ?? false,
    updateErrorsAsHttp200: options.updateErrorsAsHttp200 ?? false,
    extendedToken: options.extendedToken ?? true,
    elevatedToken: options.elevatedToken ?? false,
    defaultControls: options.defaultControls ?? false,
    demoTraffic: options.demoTraffic ?? true,
    sampleApplications: options.sampleApplications ?? true,
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
  };
}

/** Checks a config patch; returns an error message or undefined. */
export function configProblem(patch: Partial<Record<keyof EmulatorConfig, unknown>>): string | undefined {
  const lag = patch.listingLagMs;
  if (lag !== undefined && (typeof lag !== 'number' || !Number.isFinite(lag) || lag < 0)) {
    return 'listingLagMs must be a non-negative number';
  }
  const latency = patch.latencyMs;
  if (latency !== undefined && (typeof latency !== 'number' || !Number.isFinite(latency) || latency < 0)) {
    return 'latencyMs must be a non-negative number';
  }
  for (const name of SWITCHES) {
    if (patch[name] !== undefined && typeof patch[name] !== 'boolean') return `${name} must be true or false`;
  }
  const granularity = patch.ipGranularity;
  if (granularity !== undefined && !(IP_GRANULARITIES as readonly unknown[]).includes(granularity)) {
    return `ipGranularity must be one of: ${IP_GRANULARITIES.join(', ')}`;
  }
  return undefined;
}
