/**
 * The daemon's HTTP endpoints: /healthz, /readyz, /metrics, /plan, read-only
 * views of the loop's state and the metrics registry; and, only with an admin
 * token file, `POST /pause` and `DELETE /pause`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { parseListenAddress } from '../listen-address.js';
import { registerSecret } from '../secrets.js';
import { allowedHostNames, isHostAllowed } from './host-check.js';
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import type { DaemonMetrics } from './metrics.js';
import type { DaemonState } from './state.js';
import { errorMessage, shownPause } from './cycle-record.js';
import type { PauseSwitch } from './pause-switch.js';
import { renderPage } from './status-page/page.js';
import { renderMain } from './status-page/render.js';

/** How long a response in flight may take to finish when the server closes. */
const CLOSE_GRACE_MS = 2000;

export interface DaemonServerOptions {
  /** `HOST:PORT`; `[::1]:9464` for IPv6; port 0 picks a free one. */
  listen: string;
  /** The loop, or anything that exposes its state; a function is called per request. */
  loop: DaemonState | (() => DaemonState);
  metrics: DaemonMetrics;
  logger?: Logger;
  /** Enables `POST /pause` and `DELETE /pause` for a bearer of the token in `tokenFile` (read per request). */
  admin?: AdminOptions;
  /** Host names answered besides IP literals and `localhost` (`--allowed-host`); any other gets 421. */
  allowedHosts?: readonly string[];
}

export interface AdminOptions {
  readonly tokenFile: string;
  readonly pause: PauseSwitch;
  /** Told after the pause changed (the daemon asks for a cycle, which reports it). */
  readonly onChange: () => void;
}

/** Longest request body any endpoint reads (`POST /pause` takes a reason; the others take none). */
const MAX_BODY = 4096;
/** How much of a refused body is read off the socket, so the 413 reaches a client still sending instead of a reset. */
const MAX_DRAIN = 1024 * 1024;

/** A body over MAX_BODY: answered 413. */
class BodyTooLarge extends Error {}

export interface DaemonServer {
  /** `http://HOST:PORT` with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

/** Why the daemon is not ready, or undefined when it is. */
function notReadyReason(state: DaemonState): string | undefined {
  if (state.everSucceeded) return undefined;
  const last = state.lastOutcome;
  if (!last) return 'no successful cycle yet';
  const detail = last.error !== undefined ? `: ${errorMessage(last.error)}${last.waiting ? `; ${last.waiting}` : ''}` : '';
  return `no successful cycle yet; last cycle ${last.result}${detail}`;
}

/**
 * Ready once a cycle succeeded, and it stays so while later cycles fail or a
 * pause holds writes: taking the only replica out of a Service helps nobody,
 * and a rollout must not hang on an incident. The body says how it really is.
 */
function readiness(state: DaemonState) {
  const last = state.lastCycle;
  const status = last?.result === 'paused' ? 'paused'
    : last && (last.status === 'failed' || last.status === 'invalid' || last.status === 'refused') ? 'degraded' : 'ready';
  return {
    status,
    lastSuccessAt: state.lastSuccessAt !== undefined ? new Date(state.lastSuccessAt).toISOString() : undefined,
    lastResult: state.lastOutcome?.result,
    ...(last ? { lastCycle: last } : {}),
    ...(last?.revision ? { revision: last.revision.revision } : {}),
    ...(last?.paused ? { paused: last.paused } : {}),
    ...(state.lastOutcome?.waiting ? { waiting: state.lastOutcome.waiting } : {}),
    ...(state.consecutiveFailures ? { consecutiveFailures: state.consecutiveFailures } : {}),
    ...(state.concurrentWriter ? {
      concurrentWriter: {
        lastSeenAt: new Date(state.concurrentWriter.at).toISOString(), copiesDeleted: state.concurrentWriter.copies, copiesDeletedTotal: state.concurrentWriter.total,
      },
    } : {}),
  };
}

/** `/plan`: the plan, and the cycle that made it (when, from which revision, what became of it). */
function planBody(state: DaemonState): unknown {
  if (!state.lastPlan) return undefined;
  const document = state.lastPlan.document();
  return state.lastPlanCycle ? { ...document, cycle: state.lastPlanCycle } : document;
}

async function handle(req: IncomingMessage, res: ServerResponse, options: DaemonServerOptions, allowedHosts: ReadonlySet<string>): Promise<void> {
  if (!isHostAllowed(req.headers.host, allowedHosts)) {
    res.setHeader('connection', 'close');
    return sendJson(res, 421, { error: `this daemon does not answer for the host ${JSON.stringify(req.headers.host)}: address it by IP or localhost, or start it with --allowed-host` });
  }
  // Every body is read (up to MAX_BODY) before routing: one limit for all endpoints, and a sent body never left unread.
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return refuseBody(req, res);
  let body: string;
  try {
    body = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLarge) return refuseBody(req, res);
    throw error;
  }
  const state = typeof options.loop === 'function' ? options.loop() : options.loop;
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (pathname === '/pause' && options.admin) return handlePause(req, res, body, options.admin, options.logger);
  const known = ['/', '/healthz', '/readyz', '/metrics', '/plan'];
  if (!known.includes(pathname)) return sendJson(res, 404, { error: 'not found' });
  // HEAD is answered as GET is; Node sends the head alone.
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendJson(res, 405, { error: 'method not allowed' });
  }
  switch (pathname) {
    case '/':
      return sendPage(req, res, state, options);
    case '/healthz':
      return state.alive
        ? sendJson(res, 200, { status: 'ok' })
        : sendJson(res, 503, { status: 'stopped' });
    case '/readyz': {
      const reason = notReadyReason(state);
      if (reason !== undefined) return sendJson(res, 503, { ...readiness(state), status: 'not ready', reason });
      return sendJson(res, 200, readiness(state));
    }
    case '/metrics': {
      const { contentType, body } = await options.metrics.expose();
      res.writeHead(200, { 'content-type': contentType });
      res.end(body);
      return;
    }
    case '/plan':
      return state.lastPlan === undefined
        ? sendJson(res, 404, { error: 'no plan yet' })
        : sendJson(res, 200, planBody(state));
  }
}

/** The status page, or its refreshing part (`?part=main`). */
async function sendPage(req: IncomingMessage, res: ServerResponse, state: DaemonState, options: DaemonServerOptions): Promise<void> {
  const input = { state, api: await options.metrics.apiCallCounts(), admin: options.admin !== undefined, now: Date.now() };
  const common = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  if (new URL(req.url ?? '/', 'http://localhost').searchParams.get('part') === 'main') {
    res.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" });
    res.end(renderMain(input).text);
    return;
  }
  const page = renderPage(input);
  res.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.contentSecurityPolicy });
  res.end(page.body);
}

async function handlePause(req: IncomingMessage, res: ServerResponse, body: string, admin: AdminOptions, parent?: Logger): Promise<void> {
  if (req.method !== 'POST' && req.method !== 'DELETE') {
    res.setHeader('allow', 'POST, DELETE');
    return sendJson(res, 405, { error: 'method not allowed' });
  }
  const logger = (parent ?? silentLogger()).child({ module: 'server' });
  if (!(await authorized(req, admin.tokenFile, logger))) {
    res.setHeader('www-authenticate', 'Bearer');
    return sendJson(res, 401, { error: 'a valid admin token is required (Authorization: Bearer ...)' });
  }
  if (req.method === 'DELETE') {
    const lifted = admin.pause.clear();
    logger.warn({ by: 'endpoint' }, lifted ? 'pause lifted' : 'no endpoint pause to lift');
    admin.onChange();
    return sendJson(res, 200, { paused: false });
  }
  const pause = admin.pause.set(pauseReasonOf(body));
  logger.warn({ reason: pause.reason, by: 'endpoint' }, 'paused: no writes until DELETE /pause or a restart');
  admin.onChange();
  return sendJson(res, 200, { paused: true, ...shownPause(pause) });
}

/** The bearer token against the file's content, re-read each time (a rotated Secret takes effect at once). */
async function authorized(req: IncomingMessage, tokenFile: string, logger: Logger): Promise<boolean> {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (given === undefined) return false;
  let expected: string;
  try {
    expected = (await readFile(tokenFile, 'utf8')).trim();
    // Re-read on each request (rotation): the value now in it is a secret too.
    registerSecret(expected);
  } catch (error) {
    logger.error({ file: tokenFile, code: (error as NodeJS.ErrnoException).code }, 'cannot read the admin token file; every pause request is refused');
    return false;
  }
  if (expected === '') return false;
  // Equal-length digests: the comparison takes the same time whatever was sent.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * 413 with a JSON error, and the connection closed once the client has sent
 * its body (read and dropped, up to MAX_DRAIN): a client still writing gets
 * the answer, not a reset.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  sendJson(res, 413, { error: `request body too large: at most ${MAX_BODY} bytes` });
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN) req.destroy();
  });
  req.resume();
}

/**
 * The body as text; over MAX_BODY, BodyTooLarge, with the stream left open (a
 * `for await` would destroy it, and the client would see a reset, not the 413).
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      reject(new BodyTooLarge());
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks).toString('utf8'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/** `{"reason": "..."}` or plain text; empty: no reason given. */
function pauseReasonOf(body: string): string {
  if (/^\s*\{/.test(body)) {
    try {
      const reason = (JSON.parse(body) as { reason?: unknown }).reason;
      return typeof reason === 'string' ? reason : '';
    } catch {
      return body;
    }
  }
  return body;
}

/** A bind failure is a configuration problem: say which address and what to do, keep the cause. */
function listenError(listen: string, error: NodeJS.ErrnoException): UsageError {
  const why = error.code === 'EADDRINUSE' ? 'the address is already in use (another rampart run?)'
    : error.code === 'EADDRNOTAVAIL' ? 'no interface has this address'
      : error.code === 'EACCES' ? 'permission denied (ports below 1024 need privileges)'
        : error.message;
  return new UsageError(`cannot listen on ${listen} (${error.code ?? 'error'}): ${why}; choose another --listen`, { cause: error });
}

/** Starts listening; resolves once bound. `close()` also drops idle keep-alive connections. */
export async function startDaemonServer(options: DaemonServerOptions): Promise<DaemonServer> {
  const { host, port } = parseListenAddress(options.listen);
  const logger = (options.logger ?? silentLogger()).child({ module: 'server' });
  const allowedHosts = allowedHostNames(options.allowedHosts ?? []);
  const server = createServer((req, res) => {
    handle(req, res, options, allowedHosts).catch((error: unknown) => {
      logger.error({ err: error, url: req.url }, 'request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => reject(listenError(options.listen, error));
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  logger.info({ url }, 'daemon endpoints listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
