/** Start an emulator on a random port and call it with the test token. */
import { afterEach } from 'vitest';
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
