/**
 * The daemon's HTTP endpoints: /healthz, /readyz, /metrics, /plan. Read-only;
 * it only looks at the loop's state and the metrics registry.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { parseListenAddress } from '../listen-address.js';
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import type { DaemonMetrics } from './metrics.js';
import type { DaemonState } from './state.js';

/** How long a response in flight may take to finish when the server closes. */
const CLOSE_GRACE_MS = 2000;

export interface DaemonServerOptions {
  /** `HOST:PORT`; `[::1]:9464` for IPv6; port 0 picks a free one. */
  listen: string;
  /** The loop, or anything that exposes its state; a function is called per request. */
  loop: DaemonState | (() => DaemonState);
  metrics: DaemonMetrics;
  logger?: Logger;
}

export interface DaemonServer {
  /** `http://HOST:PORT` with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined ? 'unknown error' : String(error);
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
  const detail = last.error !== undefined ? `: ${errorMessage(last.error)}` : '';
  return `no successful cycle yet; last cycle ${last.result}${detail}`;
}

async function handle(req: IncomingMessage, res: ServerResponse, options: DaemonServerOptions): Promise<void> {
  const state = typeof options.loop === 'function' ? options.loop() : options.loop;
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  const known = ['/healthz', '/readyz', '/metrics', '/plan'];
  if (!known.includes(pathname)) return sendJson(res, 404, { error: 'not found' });
  if (req.method !== 'GET') {
    res.setHeader('allow', 'GET');
    return sendJson(res, 405, { error: 'method not allowed' });
  }
  switch (pathname) {
    case '/healthz':
      return state.alive
        ? sendJson(res, 200, { status: 'ok' })
        : sendJson(res, 503, { status: 'stopped' });
    case '/readyz': {
      const reason = notReadyReason(state);
      if (reason !== undefined) return sendJson(res, 503, { status: 'not ready', reason });
      return sendJson(res, 200, {
        status: 'ready',
        lastSuccessAt: state.lastSuccessAt !== undefined ? new Date(state.lastSuccessAt).toISOString() : undefined,
        lastResult: state.lastOutcome?.result,
      });
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
        : sendJson(res, 200, state.lastPlan);
  }
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
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
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
