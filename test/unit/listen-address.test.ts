import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseListenAddress } from '../../src/listen-address.js';

describe('parseListenAddress (--listen of run and emulator)', () => {
  it('reads HOST:PORT, [IPv6]:PORT and :PORT (every interface)', () => {
    expect(parseListenAddress('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListenAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parseListenAddress('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseListenAddress(':9464')).toEqual({ host: '0.0.0.0', port: 9464 });
  });

  it('refuses anything else, naming the flag and the value', () => {
    for (const bad of ['9464', '127.0.0.1', '::1:9464', 'host:99999', 'host:abc', 'nowhere']) {
      expect(() => parseListenAddress(bad)).toThrow(UsageError);
    }
    expect(() => parseListenAddress('nowhere')).toThrow(/invalid listen address "nowhere": --listen must be HOST:PORT/);
  });
});
