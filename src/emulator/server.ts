/**
 * The HTTP pipeline: body (bounded) → scripted fault → auth → route → handler →
 * flush if it wrote → envelope. Never throws out of a request; every request is
 * answered, reset on purpose, or held on purpose (hang fault).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { authenticate, type Credentials } from './auth.js';
import type { CallLog, CallOutcome } from './calllog.js';
import type { EmulatorCore } from './core.js';
import { HttpError } from './envelope.js';
import { sendGzipBomb, sendOversize } from './big-answers.js';
import { DEFAULT_FAULT_BYTES, FAULT_BODIES, type ActiveFault, type FaultScript } from './faults.js';
import { parseJson, readBody, sendEnvelope } from './http.js';
import { deleteFirstListed, updateFirstListed } from './listing-shift.js';
import { normalizePath, resolveRoute, routePattern } from './routes.js';

export const ADMIN_PREFIX = '/__admin/';

export interface ServerDeps {
  core: EmulatorCore;
  faults: FaultScript;
  calls: CallLog;
  credentials: Credentials;
  maxBodyBytes: number;
  logger: Logger;
  /** Waits until every state change so far is on disk (no-op without a data file). */
  flush: () => Promise<void>;
  admin: (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>;
}

export function createApiServer(deps: ServerDeps): Server {
  const server = createServer({ requestTimeout: 60_000, headersTimeout: 30_000 }, (req, res) => {
    handle(req, res, deps).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'emulator request failed');
      if (!res.headersSent) void sendEnvelope(req, res, 500, 'Internal server error').catch(() => res.destroy());
    });
  });
  // A client that opens a socket and sends garbage gets 400, not a crash.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return server;
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const started = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://emulator');
  const path = normalizePath(url.pathname);
  // Keyed by pattern (`PUT /v3/hint/{id}`), so faults and counts cover every id.
  const route = `${method} ${routePattern(path)}`;
  const log = (status: number | null, outcome: CallOutcome) =>
    deps.calls.record({ method, route, path, status, outcome, time: deps.core.nowMs(), durationMs: Date.now() - started });

  let raw: Buffer;
  try {
    raw = await readBody(req, deps.maxBodyBytes);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 400;
    // Tell the client we stop reading, then answer: it may still be sending.
    res.setHeader('connection', 'close');
    await sendEnvelope(req, res, status, error instanceof HttpError ? error.body : 'Bad request');
    if (!isAdmin(path)) log(status, 'answered');
    return;
  }

  if (isAdmin(path)) return deps.admin(req, res, raw);

  // Injected network latency: the call is answered (and takes effect) this much later.
  const latencyMs = deps.core.config.latencyMs ?? 0;
  if (latencyMs > 0) await sleep(latencyMs);

  const fault = deps.faults.take(route);
  const afterCall = fault?.kind === 'reset-after-write' || fault?.kind === 'status-after-write' || fault?.kind === 'delete-after-list' || fault?.kind === 'update-after-list';
  if (fault && !afterCall) return applyFault(fault, req, res, log);

  let status = 200;
  let httpStatus: number | undefined;
  let body: unknown;
  let headers: Readonly<Record<string, string>> = {};
  try {
    authenticate(req.headers, deps.credentials);
    const { handler, params } = resolveRoute(method, path);
    const result = handler({ method, path, query: url.searchParams, params, body: parseJson(raw) }, deps.core);
    if (result.wrote) await deps.flush();
    status = result.status ?? 200;
    httpStatus = result.httpStatus;
    body = result.body;
  } catch (error) {
    if (error instanceof HttpError) ({ status, body, headers } = error);
    else {
      // A bug in the emulator: answer like a failing service would, and say so in the log.
      deps.logger.error({ err: error, route }, 'emulator handler failed');
      [status, body] = [500, 'Internal server error'];
    }
  }
  const shift = fault?.kind === 'delete-after-list' ? deleteFirstListed : fault?.kind === 'update-after-list' ? updateFirstListed : undefined;
  if (shift && status === 200 && shift(deps.core, route, body) !== undefined) {
    // Another writer's change lands before the client's next page call.
    await deps.flush();
  }
  if (fault?.kind === 'reset-after-write') {
    // The write (if any) went through; the client never learns it did.
    log(null, 'reset-after-write');
    req.socket.destroy();
    return;
  }
  if (fault?.kind === 'status-after-write') {
    // The write went through; the client is told it failed.
    const failed = fault.status ?? 504;
    log(failed, 'status-after-write');
    await sendEnvelope(req, res, failed, fault.body ?? FAULT_BODIES[failed] ?? 'Error');
    return;
  }
  log(httpStatus ?? status, 'answered');
  await sendEnvelope(req, res, status, body, headers, httpStatus);
}

function applyFault(
  fault: ActiveFault,
  req: IncomingMessage,
  res: ServerResponse,
  log: (status: number | null, outcome: CallOutcome) => void,
): Promise<void> {
  if (fault.kind === 'reset') {
    log(null, 'reset');
    req.socket.destroy();
    return Promise.resolve();
  }
  if (fault.kind === 'oversize' || fault.kind === 'gzip-bomb') {
    log(200, 'answered');
    const send = fault.kind === 'oversize' ? sendOversize : sendGzipBomb;
    return send(res, fault.bytes ?? DEFAULT_FAULT_BYTES);
  }
  if (fault.kind === 'hang') {
    // Held until the client gives up or the emulator closes (closeAllConnections).
    log(null, 'hang');
    return Promise.resolve();
  }
  if (fault.kind === 'echo-token') {
    const status = fault.status ?? 401;
    const token = String(req.headers['x-serviceapi-token'] ?? '');
    const secret = String(req.headers['x-serviceapi-secret'] ?? '');
    log(status, 'answered');
    return sendEnvelope(req, res, status, { error: `token ${token} rejected`, received: { 'X-ServiceApi-Token': token, 'X-ServiceApi-Secret': secret } });
  }
  const status = fault.status ?? 500;
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(fault.retryAfterSeconds));
  else if (status === 429) headers['retry-after'] = '1';
  log(status, 'answered');
  return sendEnvelope(req, res, status, fault.body ?? FAULT_BODIES[status] ?? 'Error', headers);
}

function isAdmin(path: string): boolean {
  return `${path}/`.startsWith(ADMIN_PREFIX);
}
