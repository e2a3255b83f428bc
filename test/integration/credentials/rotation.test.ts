/**
 * Token rotation without a restart: the daemon re-reads the token file before
 * each cycle (a Kubernetes Secret volume swaps it the way it swaps a ConfigMap);
 * the next call carries the new token; the value is never logged.
 */
import { Writable } from 'node:stream';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { credentialReloader } from '../../../src/api/credential-reload.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/api/retry.js';
import { ServiceApi } from '../../../src/api/service.js';
import { ApiAuthError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { tempDir } from '../../helpers/daemon.js';
import { useTestEmulator } from '../../helpers/emulator.js';

const emulators = useTestEmulator();
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const OLD = 'old-token-0123456789';
const NEW = 'new-token-9876543210';

/** A Secret volume: `token → ..data/token`, `..data → ..<stamp>`; an update swaps `..data`. */
async function secretVolume(token: string) {
  const dir = path.join(await tempDir('rampart-secret-'), 'secret');
  let n = 0;
  const publish = async (value: string) => {
    n += 1;
    const stamp = `..2026_01_01_00_00_0${n}.${n}`;
    await mkdir(path.join(dir, stamp), { recursive: true });
    await writeFile(path.join(dir, stamp, 'token'), `${value}\n`);
    await symlink(stamp, path.join(dir, '..data_tmp'));
    await rename(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
  };
  await publish(token);
  await symlink(path.join('..data', 'token'), path.join(dir, 'token'));
  return { file: path.join(dir, 'token'), publish };
}

describe('credential rotation', () => {
  it('picks up a rotated token file on reload; keeps the old one while the file is unreadable; never logs a value', async () => {
    const emulator = await emulators.start({ token: NEW });
    const volume = await secretVolume(OLD);
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: new Writable({ write(chunk, _e, done) { lines.push(String(chunk)); done(); } }) });
    const http = new ApiClient({ baseUrl: emulator.url, credentials: { token: OLD }, retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 } });
    clients.push(http);
    const api = new ServiceApi(http);
    const reloader = credentialReloader({ tokenFile: volume.file, env: {} }, { token: OLD }, (c) => http.setCredentials(c), logger);

    await expect(api.listHints(10042, 0, 10)).rejects.toBeInstanceOf(ApiAuthError);
    expect(await reloader.reload()).toBe('unchanged');
    await volume.publish(NEW);
    expect(await reloader.reload()).toBe('reloaded');
    await expect(api.listHints(10042, 0, 10)).resolves.toBeDefined();
    expect(await reloader.reload()).toBe('unchanged');

    // Half-way through an update the file may be empty: the token in use stays.
    await volume.publish('   ');
    expect(await reloader.reload()).toBe('kept');
    await expect(api.listHints(10042, 0, 10)).resolves.toBeDefined();

    const text = lines.join('');
    expect(text).toMatch(/API credentials changed on disk/);
    expect(text).toMatch(/cannot read the credential files again/);
    expect(text).not.toContain(OLD);
    expect(text).not.toContain(NEW);
  });

  it('with the token given as a value, not a file, there is nothing to reload', async () => {
    const reloader = credentialReloader({ env: { RAMPART_API_TOKEN: OLD } }, { token: OLD }, () => { throw new Error('not called'); }, createLogger({ level: 'silent' }));
    expect(await reloader.reload()).toBe('not-from-files');
  });
});
