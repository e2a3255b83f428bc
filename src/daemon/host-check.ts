/**
 * Which `Host` the daemon's endpoints answer, against DNS rebinding: a web
 * page the operator visits can point its own name at 127.0.0.1 and read
 * `/plan` (every rule, the allowlists, where detection is off) unless the
 * daemon refuses names it was not given. IP literals and `localhost` are
 * always answered, so probes and scrapers that address the pod or the loopback
 * keep working; any other name only when given with `--allowed-host`. A
 * request without `Host` (HTTP/1.0) comes from no browser and is answered.
 */
import { isIP } from 'node:net';

/** `--allowed-host` values as compared: lower-case, without a port or a trailing dot. */
export function allowedHostNames(values: readonly string[]): ReadonlySet<string> {
  return new Set(values.map((value) => hostName(value)));
}

export function isHostAllowed(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (header === undefined || header === '') return true;
  const name = hostName(header);
  if (name === 'localhost' || isIP(name) !== 0) return true;
  return allowed.has(name);
}

/** `Shop.Example:9464` → `shop.example`; `[::1]:9464` → `::1`. */
function hostName(value: string): string {
  const trimmed = value.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed);
  if (bracketed) return bracketed[1] as string;
  const withoutPort = /^[^:]+:\d+$/.test(trimmed) ? trimmed.slice(0, trimmed.lastIndexOf(':')) : trimmed;
  return withoutPort.replace(/\.$/, '');
}
