/**
 * `/__admin/`: the control handle over HTTP, for an emulator in another process
 * (the CLI's `rampart emulator`). Same token as the API; answers in the envelope.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, type Credentials } from './auth.js';
import type { EmulatorControl } from './control.js';
import { HttpError } from './envelope.js';
import { faultProblem, type FaultSpec } from './faults.js';
import { parseJson, sendEnvelope } from './http.js';
import { configProblem } from './options.js';
import type { HitSeed } from './hits/records.js';
import type { HintSeed, IpObjectSeed } from './seed.js';
import { isPositiveInt, isRecord } from './validate.js';

type AdminHandler = (body: unknown, control: EmulatorControl) => Promise<unknown> | unknown;

const ROUTES: Readonly<Record<string, Readonly<Record<string, AdminHandler>>>> = {
  '/__admin/state': { GET: (_b, c) => c.state() },
  '/__admin/config': {
    GET: (_b, c) => c.config(),
    PUT: (b, c) => c.setConfig(checked(record(b), configProblem)),
    POST: (b, c) => c.setConfig(checked(record(b), configProblem)),
  },
  '/__admin/faults': {
    GET: (_b, c) => c.faults(),
    POST: (b, c) => {
      const list = Array.isArray(b) ? b : isRecord(b) && Array.isArray(b.faults) ? b.faults : [b];
      for (const fault of list) checked(fault, faultProblem);
      for (const fault of list) c.addFault(fault as FaultSpec);
      return c.faults();
    },
    DELETE: (_b, c) => {
      c.clearFaults();
      return [];
    },
  },
  '/__admin/calls': {
    GET: (_b, c) => ({ calls: c.calls(), counts: c.counts() }),
    DELETE: (_b, c) => {
      c.resetCalls();
      return { calls: [], counts: {} };
    },
  },
  '/__admin/clock': {
    GET: (_b, c) => ({ nowMs: c.nowMs() }),
    POST: async (b, c) => {
      const seconds = record(b).advanceSeconds;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
        throw new HttpError(400, { advanceSeconds: { error: 'must be a non-negative number' } });
      }
      const nowMs = c.advanceClock(seconds);
      await c.flush();
      return { nowMs };
    },
  },
  '/__admin/reset': {
    POST: async (_b, c) => {
      c.reset();
      await c.flush();
      return { reset: true };
    },
  },
  '/__admin/seed/hints': {
    POST: async (b, c) => {
      const seeds = items(b, 'hints');
      const created = seeds.map((s) => c.seedHint(s as HintSeed));
      await c.flush();
      return created;
    },
  },
  '/__admin/seed/hits': {
    POST: (b, c) => c.seedHits(items(b, 'hits') as HitSeed[]),
  },
  '/__admin/seed/applications': {
    POST: (b, c) => items(b, 'applications').map((seed) => {
      const { clientid, id, name } = record(seed);
      if (!isPositiveInt(clientid) || !Number.isSafeInteger(id)) throw new HttpError(400, { application: { error: 'needs clientid (a positive integer) and id (an integer)' } });
      return c.seedApplication({ clientid: clientid as number, id: id as number, ...(typeof name === 'string' ? { name } : {}) });
    }),
  },
  '/__admin/seed/ip-rules': {
    POST: async (b, c) => {
      const seeds = items(b, 'objects');
      const created = seeds.map((s) => c.seedIpObject(s as IpObjectSeed));
      await c.flush();
      return created;
    },
  },
  '/__admin/seed/demo': {
    POST: (b, c) => {
      const { clientid, attacks, vulns } = record(b);
      if (!isPositiveInt(clientid)) throw new HttpError(400, { clientid: { error: 'must be a positive integer' } });
      const counts = { attacks, vulns };
      for (const [name, n] of Object.entries(counts)) {
        if (n !== undefined && !(Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 100_000)) {
          throw new HttpError(400, { [name]: { error: 'must be an integer from 0 to 100000' } });
        }
      }
      const demo = c.seedDemo(clientid, counts as { attacks?: number; vulns?: number });
      return { clientid, attacks: demo.attacks.length, vulns: demo.vulns.length };
    },
  },
};

export function createAdminHandler(control: EmulatorControl, credentials: Credentials) {
  return async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    let status = 200;
    let body: unknown;
    try {
      authenticate(req.headers, credentials);
      const path = new URL(req.url ?? '/', 'http://emulator').pathname.replace(/\/$/, '');
      const methods = ROUTES[path];
      if (!methods) throw new HttpError(404, 'Not found');
      const handler = methods[(req.method ?? 'GET').toUpperCase()];
      if (!handler) throw new HttpError(405, 'Method not allowed');
      body = await handler(parseJson(raw), control);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      ({ status, body } = error);
    }
    await sendEnvelope(req, res, status, body);
  };
}

function record(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new HttpError(400, { body: { error: 'must be a JSON object' } });
  return body;
}

function checked<T>(value: T, problem: (v: T) => string | undefined): T {
  const message = problem(value);
  if (message) throw new HttpError(400, { body: { error: message } });
  return value;
}

/** `[...]` or `{key: [...]}`; each item must name its clientid. */
function items(body: unknown, key: string): Record<string, unknown>[] {
  const list: unknown = Array.isArray(body) ? body : isRecord(body) ? body[key] : undefined;
  if (!Array.isArray(list)) throw new HttpError(400, { [key]: { error: 'must be an array' } });
  for (const item of list) {
    if (!isRecord(item) || !isPositiveInt(item.clientid)) {
      throw new HttpError(400, { [key]: { error: 'each item needs a positive integer clientid' } });
    }
  }
  return list as Record<string, unknown>[];
}
