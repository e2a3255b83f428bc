/**
 * The HTTP client of the service API: one keep-alive pool per base URL, the
 * auth headers, timeouts, gzip, the `{status, body}` envelope, typed errors and
 * the retry policy. Knows routes and shapes, not what Rampart does with them.
 */
import { Pool } from 'undici';
import { ApiError, ApiProtocolError } from '../errors.js';
import { checkCredentials, type Credentials } from './credentials.js';
import { errorFromStatus, errorFromTransport } from './errors-from-response.js';
import { registerSecret } from '../secrets.js';
import { readResponseBody } from './response-body.js';
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
  /** Told after every call sent: the HTTP status, or `network` when none came back. */
  readonly onCall?: (info: { route: string; status: number | 'network' }) => void;
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

export interface Envelope<T = unknown> {
  readonly status: number;
  readonly body: T;
}

export class ApiClient {
  readonly baseUrl: string;
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
    let response;
    try {
      response = await this.pool.request({
        method,
        path: this.pathPrefix + path,
        headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (cause) {
      this.options.onCall?.({ route, status: 'network' });
      signal?.throwIfAborted();
      throw errorFromTransport(cause, { method, route });
    }
    this.options.onCall?.({ route, status: response.statusCode });
    let raw: Buffer;
    try {
      raw = await readResponseBody(response, route, this.options.maxResponseBytes);
    } catch (cause) {
      signal?.throwIfAborted();
      if (cause instanceof ApiError) throw cause;
      throw errorFromTransport(cause, { method, route });
    }
    return this.unwrap<T>(response.statusCode, response.headers['retry-after'], raw, method, route);
  }

  /** An HTTP 200 whose inner status is 400 or more is that error. */
  private unwrap<T>(httpStatus: number, retryAfter: string | string[] | undefined, raw: Buffer, method: string, route: string): T {
    let envelope: Envelope<T> | undefined;
    try {
      const parsed: unknown = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      if (parsed && typeof parsed === 'object' && 'status' in parsed) envelope = parsed as Envelope<T>;
    } catch {
      envelope = undefined;
    }
    const status = envelope && typeof envelope.status === 'number' && envelope.status >= 400 ? envelope.status : httpStatus;
    const details = { method, route, httpStatus, body: envelope?.body ?? raw.toString('utf8').slice(0, 300) };
    if (status >= 400) {
      throw errorFromStatus(status, { ...details, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter });
    }
    if (!envelope) {
      throw new ApiProtocolError(`${route} answered ${httpStatus} without the {status, body} envelope`, details);
    }
    return envelope.body;
  }
}
