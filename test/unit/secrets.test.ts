import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiAuthError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { redactDeep, redactSecrets, registerSecret } from '../../src/secrets.js';

const TOKEN = 'unit-token-3f9a7c';
registerSecret(TOKEN);
registerSecret('with"quote\\x');

describe('redactSecrets', () => {
  it('takes a known secret out of text and bodies, raw or JSON-escaped', () => {
    expect(redactSecrets(`bad token ${TOKEN}!`)).toBe('bad token [redacted]!');
    expect(redactSecrets(JSON.stringify({ t: 'with"quote\\x' }))).toBe('{"t":"[redacted]"}');
    expect(redactDeep({ a: [TOKEN, 1], [TOKEN]: { b: `x${TOKEN}` } })).toEqual({ a: ['[redacted]', 1], '[redacted]': { b: 'x[redacted]' } });
    registerSecret('abc');
    expect(redactSecrets('abc')).toBe('abc');
  });

  it('is applied to every API error, message and body', () => {
    const error = new ApiAuthError(`token ${TOKEN} rejected`, { body: { error: `token ${TOKEN} rejected` } });
    expect(error.message).toBe('token [redacted] rejected');
    expect(error.body).toEqual({ error: 'token [redacted] rejected' });
  });

  it('is applied to every log line, whatever field holds the secret', async () => {
    let out = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = createLogger({ destination, level: 'info' });
    logger.error({ err: new Error('upstream said', { cause: new Error(`echo ${TOKEN}`) }), detail: { nested: TOKEN } }, `msg ${TOKEN}`);
    logger.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(TOKEN);
  });
});
