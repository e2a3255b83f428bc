/** Start an emulator on a random port and call it with the test token. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ServiceApi } from '../../src/api/service.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export const TEST_TOKEN = 'test-token-0123456789';

export interface CallResult {
  /** HTTP status. */
  http: number;
  /** The envelope's status. */
  status: number;
  /** The envelope's body. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke into bodies freely
  headers: Headers;
}

export interface TestEmulator extends RunningEmulator {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<CallResult>;
}

export async function startTestEmulator(options: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ token: TEST_TOKEN, ...options });
  return Object.assign(emulator, {
    call: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(emulator.url, method, path, body, { 'x-serviceapi-token': options.token ?? TEST_TOKEN, ...headers }),
  });
}

/** A JSON call; `body` as a string is sent verbatim (for malformed-JSON tests). */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { status: number; body: unknown };
  return { http: response.status, status: envelope.status, body: envelope.body, headers: response.headers };
}

/**
 * Registers an afterEach that closes the emulator the test started with the
 * returned `start`; `current()` is that emulator.
 */
export function useTestEmulator(): { start(options?: Partial<EmulatorOptions>): Promise<TestEmulator>; current(): TestEmulator } {
  let emulator: TestEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });
  return {
    async start(options = {}) {
      emulator = await startTestEmulator(options);
      return emulator;
    },
    current() {
      if (!emulator) throw new Error('start the emulator first');
      return emulator;
    },
  };
}

/** One emulator for the whole file and Rampart's client of it: started before its tests, closed after them. */
export function useEmulatorApi(options: Partial<EmulatorOptions> = {}): { emulator(): TestEmulator; api(): ServiceApi } {
  let emulator: TestEmulator | undefined;
  let http: ApiClient | undefined;
  let api: ServiceApi | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator(options);
    http = new ApiClient({ baseUrl: emulator.url, credentials: { token: TEST_TOKEN } });
    api = new ServiceApi(http);
  });
  afterAll(async () => {
    await http?.close();
    await emulator?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the emulator starts before the file\'s tests');
    return value;
  };
  return { emulator: () => started(emulator), api: () => started(api) };
}
