/**
 * `--listen` of the daemon's endpoints and of the emulator, read one way:
 * `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for every interface; port 0 picks a
 * free one.
 */
import { UsageError } from './errors.js';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/** Throws a UsageError naming the value when it is malformed. */
export function parseListenAddress(value: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw new UsageError(`invalid listen address ${JSON.stringify(value)}: --listen must be HOST:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464 (every interface)`);
  }
  const host = match[1] ?? match[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port };
}
