/**
 * Token rotation without a restart. Kubernetes updates a Secret volume the way
 * it updates a ConfigMap (a new `..data` directory, the link swapped), so the
 * file named by `--api-token-file` changes content under the same path. The
 * daemon asks before each cycle: the files are read again and, when the token
 * or secret differ, the client sends the new ones from the next call. A file
 * that is briefly unreadable or empty keeps the credentials in use. Values are
 * never logged: only which file changed.
 */
import type { Logger } from '../log.js';
import { isRampartError } from '../errors.js';
import { resolveCredentials, type CredentialSources, type Credentials } from './credentials.js';

export type ReloadResult = 'unchanged' | 'reloaded' | 'kept' | 'not-from-files';

export interface CredentialReloader {
  /** Reads the files again; applies what changed. Never throws. */
  reload(): Promise<ReloadResult>;
}

export function credentialReloader(
  sources: CredentialSources,
  initial: Credentials,
  apply: (credentials: Credentials) => void,
  logger: Logger,
): CredentialReloader {
  const env = sources.env ?? process.env;
  const files = [
    sources.tokenFile ?? (env.RAMPART_API_TOKEN?.trim() ? undefined : env.RAMPART_API_TOKEN_FILE),
    sources.secretFile ?? (env.RAMPART_API_SECRET?.trim() ? undefined : env.RAMPART_API_SECRET_FILE),
  ].filter((file): file is string => Boolean(file));
  let current = initial;
  let failing = false;
  return {
    async reload() {
      if (files.length === 0) return 'not-from-files';
      let next: Credentials;
      try {
        next = await resolveCredentials(sources);
      } catch (error) {
        // Said once per failing stretch; the message names the file, never a value.
        if (!failing) logger.warn({ files, err: isRampartError(error) ? error.message : String(error) }, 'cannot read the credential files again; the credentials in use are kept');
        failing = true;
        return 'kept';
      }
      failing = false;
      if (next.token === current.token && next.secret === current.secret) return 'unchanged';
      const changed = [
        ...(next.token !== current.token ? ['token'] : []),
        ...(next.secret !== current.secret ? ['secret'] : []),
      ];
      apply(next);
      current = next;
      logger.info({ files, changed }, 'API credentials changed on disk; the new ones are used from the next call');
      return 'reloaded';
    },
  };
}
