import { writeFile } from 'node:fs/promises';
import { shownPlan } from '../../helpers/shown-plan.js';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReconcileLoop } from '../../../src/daemon/loop.js';
import { DaemonMetrics } from '../../../src/daemon/metrics.js';
import type { DaemonState } from '../../../src/daemon/state.js';
import { cycleRecord } from '../../../src/daemon/cycle-record.js';
import type { CycleOutcome } from '../../../src/reconcile/outcome.js';
import { startDaemonServer, type DaemonServer } from '../../../src/daemon/server.js';
import { PauseSwitch } from '../../../src/daemon/pause-switch.js';
import { eventually } from '../../helpers/eventually.js';

const servers: DaemonServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function state(overrides: Partial<DaemonState> = {}): DaemonState {
  return {
    alive: true, running: false, everSucceeded: false, lastOutcome: undefined,
    lastCycleId: undefined, lastSuccessAt: undefined, lastPlan: undefined, ...overrides,
  };
}

async function serve(loop: DaemonState | (() => DaemonState), metrics = new DaemonMetrics(), listen = '127.0.0.1:0'): Promise<DaemonServer> {
  const server = await startDaemonServer({ listen, loop, metrics });
  servers.push(server);
  return server;
}

async function get(url: string, method = 'GET'): Promise<{ status: number; type: string; body: string; allow?: string }> {
  const response = await fetch(url, { method });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
    allow: response.headers.get('allow') ?? undefined,
  };
}

describe('daemon server', () => {
  it('serves /healthz while the loop is alive, 503 once it stopped', async () => {
    let current = state();
    const server = await serve(() => current);
    expect(await get(`${server.url}/healthz`)).toMatchObject({ status: 200, body: '{"status":"ok"}\n' });
    expect((await get(`${server.url}/healthz`)).type).toMatch(/^application\/json/);
    current = state({ alive: false });
    expect((await get(`${server.url}/healthz`)).status).toBe(503);
  });

  it('serves /readyz 503 with the reason before a success, 200 after', async () => {
    let current = state();
    const server = await serve(() => current);
    let res = await get(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({ status: 'not ready', reason: 'no successful cycle yet' });

    current = state({ lastOutcome: { result: 'failed', error: new Error('401 from the API') } });
    res = await get(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body).reason).toBe('no successful cycle yet; last cycle failed: 401 from the API');

    current = state({ everSucceeded: true, lastSuccessAt: Date.UTC(2025, 0, 2), lastOutcome: { result: 'success' } });
    res = await get(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ready', lastSuccessAt: '2025-01-02T00:00:00.000Z', lastResult: 'success' });
  });

  it('flips readiness when a real loop has its first successful cycle', async () => {
    let attempts = 0;
    // The retry is held until the endpoints were looked at after the failure, however slow the machine.
    let releaseRetry = (): void => undefined;
    const retryHeld = new Promise<void>((resolve) => { releaseRetry = resolve; });
    const metrics = new DaemonMetrics();
    const loop = new ReconcileLoop({
      intervalMs: 60_000, backoff: { baseMs: 30, maxMs: 30 }, metrics,
      cycle: async () => {
        if (++attempts === 1) return { result: 'failed', error: new Error('api down') };
        await retryHeld;
        return { result: 'no-op', plan: shownPlan({ summary: { create: 0 } }) };
      },
    });
    const server = await serve(loop, metrics);
    expect((await get(`${server.url}/healthz`)).status).toBe(503);
    const controller = new AbortController();
    const done = loop.run(controller.signal);
    await eventually(() => loop.lastOutcome?.result === 'failed', 'failed cycle');
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    expect(JSON.parse((await get(`${server.url}/readyz`)).body).reason).toMatch(/api down/);
    releaseRetry();
    await eventually(() => loop.everSucceeded, 'successful retry');
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
    expect(JSON.parse((await get(`${server.url}/plan`)).body)).toEqual({
      summary: { create: 0 },
      cycle: expect.objectContaining({ id: loop.lastCycleId, result: 'no-op', status: 'nothing-to-do' }),
    });
    const text = (await get(`${server.url}/metrics`)).body;
    expect(text).toMatch(/rampart_reconcile_total\{result="failed"\} 1/);
    expect(text).toMatch(/rampart_reconcile_total\{result="no-op"\} 1/);
    expect(text).toMatch(/rampart_last_success_timestamp_seconds \d+/);
    controller.abort();
    await done;
  });

  it('serves Prometheus text with every contract metric name', async () => {
    const metrics = new DaemonMetrics({ version: '1.2.3' });
    metrics.recordCycle('success', 0.2);
    metrics.recordApplied('create', 'rule', 3);
    metrics.setPolicyValid(true);
    metrics.setLastSuccess(Date.UTC(2025, 0, 1));
    metrics.recordApiCall('/v1/objects/hint', 200);
    metrics.recordRetry('/v1/objects/hint');
    metrics.setPendingChanges({ create: 1, update: 3, delete: 2 });
    const server = await serve(state(), metrics);
    const res = await get(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'rampart_reconcile_total{result="success"} 1',
      'rampart_reconcile_duration_seconds_bucket',
      'rampart_reconcile_duration_seconds_count 1',
      'rampart_changes_applied_total{action="create",kind="rule"} 3',
      'rampart_policy_valid 1',
      'rampart_last_success_timestamp_seconds 1735689600',
      'rampart_api_calls_total{route="/v1/objects/hint",status="200"} 1',
      'rampart_api_retries_total{route="/v1/objects/hint"} 1',
      'rampart_plan_pending_changes{action="delete"} 2',
      'rampart_plan_pending_changes{action="update"} 3',
      'rampart_plan_pending_changes{action="replace"} 0',
      'rampart_cycle_in_progress 0',
      'rampart_build_info{version="1.2.3"} 1',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) expect(res.body).toContain(name);
  });

  it('serves /plan as JSON, 404 before the first plan', async () => {
    let current = state();
    const server = await serve(() => current);
    expect(await get(`${server.url}/plan`)).toMatchObject({ status: 404, body: '{"error":"no plan yet"}\n' });
    const plan = { format_version: 1, summary: { create: 1, delete: 0, unchanged: 3 }, changes: [] };
    current = state({ lastPlan: shownPlan(plan) });
    const res = await get(`${server.url}/plan?pretty=1`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual(plan);
  });

  it('stays ready once a cycle succeeded, and says how the last cycle really went: degraded, paused', async () => {
    const revision = { revision: 'f'.repeat(40), source: 'git-sync' } as const;
    const record = (outcome: CycleOutcome) => cycleRecord('3-abcd', { ...outcome, revision }, 0, 1000);
    let current = state({ everSucceeded: true, lastSuccessAt: 1, lastOutcome: { result: 'failed' }, lastCycle: record({ result: 'failed', error: new Error('api down') }), consecutiveFailures: 2 });
    const server = await serve(() => current);
    const degraded = await get(`${server.url}/readyz`);
    expect(degraded.status).toBe(200);
    expect(JSON.parse(degraded.body)).toMatchObject({ status: 'degraded', lastResult: 'failed', consecutiveFailures: 2, revision: 'f'.repeat(40), lastCycle: { error: 'api down' } });
    current = state({ everSucceeded: true, lastSuccessAt: 1, lastOutcome: { result: 'paused' }, lastCycle: record({ result: 'paused', paused: { reason: 'INC-1', since: 0, by: 'endpoint' } }) });
    expect(JSON.parse((await get(`${server.url}/readyz`)).body)).toMatchObject({ status: 'paused', paused: { reason: 'INC-1' } });
    current = state({ everSucceeded: true, lastSuccessAt: 1, lastOutcome: { result: 'success' }, lastCycle: record({ result: 'success' }) });
    expect(JSON.parse((await get(`${server.url}/readyz`)).body)).toMatchObject({ status: 'ready' });
    // Without --admin-token-file there is no pause endpoint at all.
    expect((await get(`${server.url}/pause`, 'POST')).status).toBe(404);
  });

  it('answers an oversized body 413 with a JSON error and closes the connection cleanly, on every endpoint', async () => {
    const tokenFile = join(tmpdir(), `rampart-admin-${process.pid}-${Date.now()}`);
    await writeFile(tokenFile, 'admin-secret\n');
    const pause = new PauseSwitch();
    const server = await startDaemonServer({ listen: '127.0.0.1:0', loop: state(), metrics: new DaemonMetrics(), admin: { tokenFile, pause, onChange: () => undefined } });
    servers.push(server);
    /** A raw request that keeps writing its body after the answer could have come: the answer must still arrive. */
    const send = (path: string, method: string, body: string, headers: Record<string, string> = {}) => new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', authorization: 'Bearer admin-secret', ...headers } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => { text += String(chunk); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
      });
      req.on('error', reject);
      req.end(body);
    });
    const big = JSON.stringify({ reason: 'x'.repeat(200_000) });
    const length = { 'content-length': String(Buffer.byteLength(big)) };
    // A GET body needs its length said: Node's client frames no GET body on its own.
    for (const [path, method, headers] of [['/pause', 'POST', length], ['/pause', 'POST', { 'transfer-encoding': 'chunked' }], ['/plan', 'GET', length], ['/readyz', 'DELETE', length]] as const) {
      const answer = await send(path, method, big, headers);
      expect([answer.status, JSON.parse(answer.body)], `${method} ${path}`).toEqual([413, { error: 'request body too large: at most 4096 bytes' }]);
      expect(answer.connection).toBe('close');
    }
    expect(pause.current).toBeUndefined();
    expect((await send('/pause', 'POST', JSON.stringify({ reason: 'maintenance' }))).status).toBe(200);
  });

  it('serves the status page as HTML under a CSP that allows nothing external, its refreshing part too', async () => {
    const server = await serve(state());
    const response = await fetch(`${server.url}/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(csp).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'; style-src 'nonce-[A-Za-z0-9+/=]+'; connect-src 'self'/);
    const body = await response.text();
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(body).toContain(`<script nonce="${nonce}">`);
    expect(body).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/);
    const part = await fetch(`${server.url}/?part=main`);
    expect(part.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(await part.text()).toContain('data-testid="status"');
  });

  it('answers 404 on unknown paths and 405 on other methods', async () => {
    const server = await serve(state());
    expect((await get(`${server.url}/admin`)).status).toBe(404);
    expect((await get(`${server.url}/index.html`)).status).toBe(404);
    expect((await get(`${server.url}/`, 'POST')).status).toBe(405);
    const res = await get(`${server.url}/healthz`, 'POST');
    expect(res.status).toBe(405);
    expect(res.allow).toBe('GET, HEAD');
    expect((await get(`${server.url}/plan`, 'DELETE')).status).toBe(405);
  });

  it('answers HEAD wherever it answers GET, with the head alone', async () => {
    const server = await serve(state({ everSucceeded: true, lastSuccessAt: 1, lastOutcome: { result: 'success' } }));
    for (const path of ['/', '/healthz', '/readyz', '/metrics']) {
      const head = await get(`${server.url}${path}`, 'HEAD');
      expect(head.status, path).toBe((await get(`${server.url}${path}`)).status);
      expect(head.body, path).toBe('');
    }
  });

  /** A request with the Host header as given, as a page rebinding its own name to the daemon sends it. */
  function withHost(url: string, host: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(`${url}/plan`, { headers: { host } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers a Host that is an IP or localhost, and only the names given with --allowed-host, against DNS rebinding', async () => {
    const plan = { format_version: 1, changes: [] };
    const open = await serve(state({ lastPlan: shownPlan(plan) }));
    const port = new URL(open.url).port;
    expect((await withHost(open.url, `rebind.attacker.example:${port}`)).status).toBe(421);
    expect((await withHost(open.url, 'rebind.attacker.example')).body).not.toContain('format_version');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, '10.1.2.3']) {
      expect((await withHost(open.url, host)).status, host).toBe(200);
    }
    const named = await startDaemonServer({ listen: '127.0.0.1:0', loop: state({ lastPlan: shownPlan(plan) }), metrics: new DaemonMetrics(), allowedHosts: ['Rampart.Internal'] });
    servers.push(named);
    expect((await withHost(named.url, `rampart.internal:${port}`)).status).toBe(200);
    expect((await withHost(named.url, 'other.internal')).status).toBe(421);
  });

  it('listens on IPv6 loopback', async (ctx) => {
    let server: DaemonServer;
    try {
      server = await serve(state(), new DaemonMetrics(), '[::1]:0');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL' || (error as NodeJS.ErrnoException).code === 'EAFNOSUPPORT') return ctx.skip();
      throw error;
    }
    expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const port = Number(new URL(server.url).port);
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '::1', port, path: '/healthz', family: 6 }, (res) => { res.resume(); resolve(res.statusCode ?? 0); })
        .on('error', reject).end();
    });
    expect(status).toBe(200);
  });

  it('rejects when the port is taken, and close() is idempotent', async () => {
    const first = await serve(state());
    const taken = new URL(first.url).port;
    await expect(startDaemonServer({ listen: `127.0.0.1:${taken}`, loop: state(), metrics: new DaemonMetrics() })).rejects.toThrow(/EADDRINUSE/);
    await first.close();
    await first.close();
  });
});
