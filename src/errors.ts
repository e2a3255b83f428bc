/**
 * Every error Rampart raises on purpose: a small base class and subclasses with
 * a literal, stable `code`. Callers decide what to do (retry, stop, exit code)
 * by code, never by message. See docs/errors.md for the list.
 */
import type { Diagnostic } from './diagnostic.js';
import { redactDeep, redactSecrets } from './secrets.js';

/**
 * Every code a Rampart error carries, stable across releases: scripts and the
 * JSON report match on these. docs/errors.md has a row for each.
 */
export type ErrorCode =
  | 'usage'
  | 'file'
  | 'internal'
  | 'policy_invalid'
  | 'no_policies'
  | 'unmanaged_conflict'
  | 'unknown_application'
  | 'unsafe_plan'
  | 'stale_plan'
  | 'plan_mismatch'
  | 'paused'
  | 'apply_failed'
  | 'export_check'
  | 'forge_api'
  | 'listing_unstable'
  | 'snapshot_unstable'
  | 'api_auth'
  | 'api_validation'
  | 'api_not_found'
  | 'api_conflict'
  | 'api_locked'
  | 'api_rate_limited'
  | 'api_server'
  | 'api_network'
  | 'api_tls'
  | 'api_timeout'
  | 'api_protocol'
  | 'api_request';

export abstract class RampartError extends Error {
  abstract readonly code: ErrorCode;
  /** True where trying the same thing again later may succeed. */
  readonly retryable: boolean = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad command-line usage or configuration. */
export class UsageError extends RampartError {
  readonly code = 'usage';
}

/**
 * A file Rampart must read or write could not be: missing, unreadable, not
 * writable (a token file, the journal, a saved plan, a CI event file). The
 * message names the file and the system's reason (`ENOENT`, `EACCES`).
 */
export class FileError extends RampartError {
  readonly code = 'file';
}

/**
 * Something that cannot happen did: a bug, or a broken installation. Printed
 * as an internal error, its stack kept for `RAMPART_DEBUG=1` (commands/main.ts).
 */
export class InternalError extends RampartError {
  readonly code = 'internal';
}

/** One or more policy files are invalid; the diagnostics say where. */
export class PolicyInvalidError extends RampartError {
  readonly code = 'policy_invalid';
}

/**
 * The policy directory is missing or declares nothing: never read as "no
 * changes" (a mistyped path in CI would turn green) nor as "delete
 * everything". `--allow-empty` accepts it.
 */
export class NoPoliciesError extends RampartError {
  readonly code = 'no_policies';
}

/**
 * An unmanaged object stands in the way of a declaration (a one-per-scope rule
 * held with other values, a value held in another list): nothing is written
 * unless `--adopt` takes it over.
 */
export class UnmanagedConflictError extends RampartError {
  readonly code = 'unmanaged_conflict';
}

/**
 * A policy names an application its account does not have: objects scoped to
 * it would protect nothing. Nothing is planned.
 */
export class UnknownApplicationError extends RampartError {
  readonly code = 'unknown_application';
}

/** The plan deletes more than the safety guard allows without --force. */
export class UnsafePlanError extends RampartError {
  readonly code = 'unsafe_plan';
}

/** A saved plan no longer matches the policies or the live state. */
export class StalePlanError extends RampartError {
  readonly code = 'stale_plan';
}

/**
 * A saved plan whose changes differ from the plan computed again from the same
 * policies and live state: the file was edited (its checksum is no signature).
 */
export class PlanMismatchError extends RampartError {
  readonly code = 'plan_mismatch';
}

/** A `.rampart-pause` file holds writes back; `apply` refuses until it is removed. */
export class PausedError extends RampartError {
  readonly code = 'paused';
}

/** Some changes of an apply failed; the report lists which. */
export class ApplyFailedError extends RampartError {
  readonly code = 'apply_failed';
}

/** `rampart export` wrote files that do not validate for a reason no single object explains (a bug). */
export class ExportCheckError extends RampartError {
  readonly code = 'export_check';

  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(`the exported files do not validate: ${diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`).join('; ')}`);
  }
}

/** The forge (GitHub or GitLab) API refused or failed a comment call. */
export class ForgeApiError extends RampartError {
  readonly code = 'forge_api';

  constructor(
    message: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A listing moved between page calls on every read. Retryable: the next read may be quiet. */
export class ListingUnstableError extends RampartError {
  readonly code = 'listing_unstable';
  override readonly retryable = true;
}

/** The policy directory kept moving while it was read. Retryable: the next cycle tries again. */
export class SnapshotUnstableError extends RampartError {
  readonly code = 'snapshot_unstable';
  override readonly retryable = true;
}

/** Details every API error carries: what was called and what the API said. */
export interface ApiErrorDetails {
  readonly method?: string;
  readonly route?: string;
  /** `host:port` of the API, where the failure is about reaching it. */
  readonly host?: string;
  readonly httpStatus?: number;
  /** The envelope's `body`, as the API sent it. */
  readonly body?: unknown;
  readonly cause?: unknown;
  /** The request may have reached the server and been acted on (see `ApiError.mayHaveBeenApplied`). */
  readonly mayHaveBeenApplied?: boolean;
  /** No connection to the host was made (see `ApiError.unreachable`). */
  readonly unreachable?: boolean;
}

export abstract class ApiError extends RampartError {
  readonly method?: string;
  readonly route?: string;
  readonly host?: string;
  readonly httpStatus?: number;
  readonly body?: unknown;
  /**
   * True when the request may have reached the server and been acted on (a
   * reset after sending, a 5xx): a create that failed this way is looked for in
   * the listing, never blindly repeated.
   */
  readonly mayHaveBeenApplied: boolean;
  /**
   * No connection to the host was made at all (refused, DNS, connect timeout,
   * TLS handshake): a one-shot command gives up within seconds instead of
   * backing off, since a person is waiting and the cause is usually a setting.
   */
  readonly unreachable: boolean;

  /** Message and body come from the network: a token echoed in them is redacted here, once for all. */
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(redactSecrets(message), { cause: details.cause });
    this.method = details.method;
    this.route = details.route;
    this.host = details.host;
    this.httpStatus = details.httpStatus;
    this.body = redactDeep(details.body);
    this.mayHaveBeenApplied = details.mayHaveBeenApplied ?? false;
    this.unreachable = details.unreachable ?? false;
  }
}

/** 401/403: the token is wrong or lacks rights. Never retried. */
export class ApiAuthError extends ApiError {
  readonly code = 'api_auth';
  /** 401 (the token itself was not accepted) rather than 403 (not allowed on this account or object). */
  readonly tokenRejected: boolean;

  constructor(message: string, details: ApiErrorDetails & { readonly tokenRejected?: boolean } = {}) {
    super(message, details);
    this.tokenRejected = details.tokenRejected ?? false;
  }
}

/** 400: the API rejected the request's content. */
export class ApiValidationError extends ApiError {
  readonly code = 'api_validation';
}

export class ApiNotFoundError extends ApiError {
  readonly code = 'api_not_found';
}

/** 409: the object already exists. */
export class ApiConflictError extends ApiError {
  readonly code = 'api_conflict';
}

/** 423: rule writes are locked for a while (backup or restore). */
export class ApiLockedError extends ApiError {
  readonly code = 'api_locked';
  override readonly retryable = true;
}

/** 429: too many requests. */
export class ApiRateLimitedError extends ApiError {
  readonly code = 'api_rate_limited';
  override readonly retryable = true;
  /** How long the server asked us to wait (its Retry-After header), when it said. */
  readonly retryAfterMs?: number;

  constructor(message: string, details: ApiErrorDetails & { readonly retryAfterMs?: number } = {}) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 5xx. */
export class ApiServerError extends ApiError {
  readonly code = 'api_server';
  override readonly retryable = true;
}

/** Connection refused or reset, DNS failure, socket closed. */
export class ApiNetworkError extends ApiError {
  readonly code = 'api_network';
  override readonly retryable = true;
}

/**
 * The TLS handshake failed: a certificate the client does not trust (self-signed,
 * an unknown CA, a name mismatch, expired), or an https URL to a plain-HTTP port.
 * Retrying cannot fix a setting.
 */
export class ApiTlsError extends ApiError {
  readonly code = 'api_tls';
}

/** Connect or request timeout. */
export class ApiTimeoutError extends ApiError {
  readonly code = 'api_timeout';
  override readonly retryable = true;
}

/** A response that is not the documented envelope or shape. */
export class ApiProtocolError extends ApiError {
  readonly code = 'api_protocol';
}

/**
 * The request could not be sent as built (undici refused an argument, such as a
 * header value). Sending it again cannot help: never retried.
 */
export class ApiRequestError extends ApiError {
  readonly code = 'api_request';
}

export function isRampartError(error: unknown): error is RampartError {
  return error instanceof RampartError;
}
