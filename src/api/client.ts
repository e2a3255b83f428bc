/**
 * The HTTP client of the service API: one keep-alive pool per base URL, the
 * auth headers, timeouts, gzip, the `{status, body}` envelope, typed errors and
 * the retry policy. Knows routes and shapes, not what Rampart does with them.
 */
import { Pool } from './pool.js';
import { ApiError } from '../errors.js';
import { checkCredentials, type Credentials } from './credentials.js';
import { errorFromStatus } from './errors-from-response.js';
import { errorFromTransport } from './errors-from-transport.js';
import { type AnswerFacts, describeNonJson, noEnvelopeError, notJsonError } from './not-json.js';
import { registerSecret } from '../secrets.js';
import { readResponseBody, type ResponseBody } from './response-body.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetry } from './retry.js';

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly connectTimeoutMs?: number;
  /** Time to the response headers and between body chunks. */
  readonly requestTimeoutMs?: number;
  /** Open connections to the API; bounds the concurrency of listings and writes. */
  readonly connections?: number;
  readonly retry?: RetryPolicy;
  readonly onRetry?: (info: { route: string; attempt: number; delayMs: number; error: ApiError }) => void;
  /** Told after every call sent (retries too), once its answer is read or it failed. */
  readonly onCall?: (info: CallRecord) => void;
  readonly userAgent?: string;
  /** Bound on a response body, as sent and unzipped; default MAX_RESPONSE_BYTES. */
  readonly maxResponseBytes?: number;
}

export interface CallOptions {
  /** Aborts the call in flight and any wait before a retry. */
  readonly signal?: AbortSignal;
  /**
   * Stops retrying (and waiting to retry) without cutting the call in flight:
   * a graceful shutdown lets a write finish so its outcome is known.
   */
  readonly stopRetrying?: AbortSignal;
  /** Writes that must not be repeated blindly pass false. Default true. */
  readonly idempotent?: boolean;
  /** The path as a template (`/v3/hint/{id}`) for logs, metrics and call counts, where the path holds an id. */
  readonly route?: string;
}

/** One exchange with the API, for metrics and the trace log: never a header or a body. */
export interface CallRecord {
  readonly method: string;
  /** `POST /v1/objects/hint`: the method and the path template, without the query. */
  readonly route: string;
  /** The HTTP status, or `network` when no answer came back. */
  readonly status: number | 'network';
  readonly durationMs: number;
  readonly requestBytes: number;
  /** The answer's body as read (unzipped); absent when none was read. */
  readonly responseBytes?: number;
  /** The error code of a failed exchange (`api_network`, `api_server`, ...). */
  readonly errorCode?: string;
  /** Cut short by the caller (a sibling listing failed, a deadline, a shutdown). */
  readonly aborted?: boolean;
}

export interface Envelope<T = unknown> {
  readonly status: number;
  readonly body: T;
}

export class ApiClient {
  readonly baseUrl: string;
  /** `host[:port]` of the API: what errors about reaching it name. */
  readonly host: string;
  /** Calls actually sent, per route (`POST /v1/objects/hint`), retries included. */
  readonly callCounts = new Map<string, number>();
  private readonly pool: Pool;
  private readonly pathPrefix: string;
  private headers: Record<string, string>;

  constructor(private readonly options: ApiClientOptions) {
    checkCredentials(options.credentials);
    registerSecret(options.credentials.token);
    registerSecret(options.credentials.secret);
    const url = new URL(options.baseUrl);
    this.baseUrl = url.toString().replace(/\/$/, '');
    this.host = url.host;
    this.pathPrefix = url.pathname.replace(/\/$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 8,
      connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      keepAliveTimeout: 30_000,
      pipelining: 1,
    });
    this.headers = {
      'accept': 'application/json',
      'accept-encoding': 'gzip',
      'user-agent': options.userAgent ?? 'rampart',
      'x-serviceapi-token': options.credentials.token,
      ...(options.credentials.secret ? { 'x-serviceapi-secret': options.credentials.secret } : {}),
    };
  }

  /**
   * Sends these credentials from the next call on (a rotated token file). A
   * call in flight keeps the headers it was sent with.
   */
  setCredentials(credentials: Credentials): void {
    checkCredentials(credentials);
    registerSecret(credentials.token);
    registerSecret(credentials.secret);
    const headers: Record<string, string> = { ...this.headers, 'x-serviceapi-token': credentials.token };
    if (credentials.secret) headers['x-serviceapi-secret'] = credentials.secret;
    else delete headers['x-serviceapi-secret'];
    this.headers = headers;
  }

  /** Total calls sent, over all routes. */
  get totalCalls(): number {
    let total = 0;
    for (const count of this.callCounts.values()) total += count;
    return total;
  }

  async call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
    const route = `${method} ${options.route ?? path.split('?')[0]}`;
    return withRetry(() => this.once<T>(method, path, route, body, options.signal), {
      idempotent: options.idempotent ?? true,
      signal: options.signal ?? options.stopRetrying,
      policy: this.options.retry ?? DEFAULT_RETRY_POLICY,
      onRetry: (info) => this.options.onRetry?.({ route, ...info }),
    });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async once<T>(method: string, path: string, route: string, body: unknown, signal?: AbortSignal): Promise<T> {
    this.callCounts.set(route, (this.callCounts.get(route) ?? 0) + 1);
    const timeout = this.options.requestTimeoutMs ?? 30_000;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    const record = (status: number | 'network', extra: { responseBytes?: number; error?: unknown }): void => {
      this.options.onCall?.({
        method, route, status,
        durationMs: Math.round(performance.now() - started),
        requestBytes: payload === undefined ? 0 : Buffer.byteLength(payload),
        ...(extra.responseBytes !== undefined ? { responseBytes: extra.responseBytes } : {}),
        ...(signal?.aborted ? { aborted: true } : extra.error instanceof ApiError ? { errorCode: extra.error.code } : {}),
      });
    };
    const details = { method, route, host: this.host };
    let response;
    try {
      response = await this.pool.request({
        method,
        path: this.pathPrefix + path,
        headers: payload === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
        body: payload,
        signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (cause) {
      const error = signal?.aborted ? signal.reason : errorFromTransport(cause, details);
      record('network', { error });
      signal?.throwIfAborted();
      throw error;
    }
    let raw: ResponseBody;
    try {
      raw = await readResponseBody(response, route, this.options.maxResponseBytes);
    } catch (cause) {
      const error = signal?.aborted || cause instanceof ApiError ? cause : errorFromTransport(cause, details);
      record(response.statusCode, { error });
      signal?.throwIfAborted();
      throw error;
    }
    const facts: AnswerFacts = {
      host: this.host, route, httpStatus: response.statusCode,
      ...headerValue('contentType', response.headers['content-type']),
      ...headerValue('location', response.headers.location),
    };
    try {
      const result = this.unwrap<T>(facts, response.headers['retry-after'], raw, method);
      record(response.statusCode, { responseBytes: raw.bytes });
      return result;
    } catch (error) {
      record(response.statusCode, { responseBytes: raw.bytes, error });
      throw error;
    }
  }

  /**
   * An HTTP 200 whose inner status is 400 or more is that error. A body that is
   * not JSON is a protocol error (a wrong --api-url), except on the statuses a
   * proxy answers for a busy or failing backend, which stay retryable.
   */
  private unwrap<T>(facts: AnswerFacts, retryAfter: string | string[] | undefined, raw: ResponseBody, method: string): T {
    const { route, httpStatus } = facts;
    const { text } = raw;
    let parsed: unknown;
    let json = true;
    try {
      parsed = text.length ? JSON.parse(text) : undefined;
    } catch {
      json = false;
    }
    const envelope = parsed && typeof parsed === 'object' && 'status' in parsed ? parsed as Envelope<T> : undefined;
    const status = envelope && typeof envelope.status === 'number' && envelope.status >= 400 ? envelope.status : httpStatus;
    const details = { method, route, host: facts.host, httpStatus, body: envelope?.body ?? text.slice(0, 300) };
    if (!json && !turnedAwayByProxy(status)) throw notJsonError(text, facts, details);
    if (status >= 400) {
      const body = json ? details.body : describeNonJson(text);
      throw errorFromStatus(status, { ...details, body, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter });
    }
    if (!envelope) throw noEnvelopeError(facts, details);
    return envelope.body;
  }
}

/** 5xx, 423 and 429 come from proxies as HTML too, and are worth retrying whatever the body. */
function turnedAwayByProxy(status: number): boolean {
  return status >= 500 || status === 423 || status === 429;
}

function headerValue<K extends string>(key: K, value: string | string[] | undefined): Partial<Record<K, string>> {
  const first = Array.isArray(value) ? value[0] : value;
  return first ? { [key]: first } as Partial<Record<K, string>> : {};
}
