import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { checkCredentials, readSecret, resolveCredentials } from '../../../src/api/credentials.js';
import { UsageError } from '../../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rampart-credentials-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readSecret (the API credentials and the emulator token)', () => {
  it('takes the named file first, then the value, then the file a variable names', async () => {
    const file = path.join(dir, 'flag');
    const envFile = path.join(dir, 'env');
    await writeFile(file, 'from-flag-file\n');
    await writeFile(envFile, 'from-env-file\n');
    expect(await readSecret('token', { file, value: 'value', envFile })).toBe('from-flag-file');
    expect(await readSecret('token', { value: ' value\n', envFile })).toBe('value');
    expect(await readSecret('token', { value: '  ', envFile })).toBe('from-env-file');
    expect(await readSecret('token', {})).toBeUndefined();
  });

  it('refuses an empty or unreadable file, naming it and what it holds', async () => {
    const empty = path.join(dir, 'empty');
    await writeFile(empty, '\n');
    await expect(readSecret('emulator token', { file: empty })).rejects.toThrow(`the emulator token file ${empty} is empty`);
    await expect(readSecret('emulator token', { file: path.join(dir, 'missing') })).rejects.toThrow(/cannot read the emulator token file .*ENOENT/);
  });
});

describe('resolveCredentials', () => {
  it('trims the newline a file or a variable ends with', async () => {
    const file = path.join(dir, 'token');
    await writeFile(file, 'file-token-123\r\n');
    expect(await resolveCredentials({ tokenFile: file, env: {} })).toEqual({ token: 'file-token-123' });
    expect(await resolveCredentials({ env: { RAMPART_API_TOKEN: 'env-token-123\n', RAMPART_API_SECRET: ' s3cret\n' } }))
      .toEqual({ token: 'env-token-123', secret: 's3cret' });
  });

  it.each([
    ['a newline inside', 'abc\ndef', 'U+000A at character 4'],
    ['a carriage return', 'abc\rdef', 'U+000D'],
    ['NUL', 'abc\0def', 'U+0000'],
    ['\\x01', 'abc\x01def', 'U+0001'],
    ['DEL', 'abc\x7fdef', 'U+007F'],
    ['a character beyond Latin-1', 'abc\u2028def', 'U+2028'],
  ])('refuses a token with %s, without printing it', async (_what, token, where) => {
    const error = await resolveCredentials({ env: { RAMPART_API_TOKEN: token } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(where);
    expect((error as Error).message).toContain('API token');
    expect((error as Error).message).not.toContain('abc');
  });

  it('refuses a token file with a control character inside, and a bad secret', async () => {
    const file = path.join(dir, 'token');
    await writeFile(file, 'first-line\nsecond-line\n');
    await expect(resolveCredentials({ tokenFile: file, env: {} })).rejects.toThrow(/API token holds a character .*U\+000A/);
    await expect(resolveCredentials({ env: { RAMPART_API_TOKEN: 'good-token', RAMPART_API_SECRET: 'bad\0secret' } }))
      .rejects.toThrow(/API secret holds a character .*U\+0000/);
  });
});

describe('ApiClient', () => {
  it('refuses credentials it could not send, whoever built them', () => {
    expect(() => new ApiClient({ baseUrl: 'http://127.0.0.1:1', credentials: { token: 'a\nb' } })).toThrow(UsageError);
    expect(() => checkCredentials({ token: 'fine-token', secret: 'also fine' })).not.toThrow();
  });
});
