/**
 * Where the API token and secret come from: a file (Kubernetes Secret volumes,
 * Docker secrets) or the environment. Values are trimmed of the newline most
 * editors and `echo` leave behind; any other control character is refused here,
 * before a request is built (undici would refuse the header on every call).
 * They are never logged, nor shown in an error.
 */
import { readFile } from 'node:fs/promises';
import { FileError, UsageError } from '../errors.js';

export interface Credentials {
  readonly token: string;
  readonly secret?: string;
}

export interface CredentialSources {
  readonly tokenFile?: string;
  readonly secretFile?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export async function resolveCredentials(sources: CredentialSources): Promise<Credentials> {
  const env = sources.env ?? process.env;
  const token = await readSecret('API token', { file: sources.tokenFile, value: env.RAMPART_API_TOKEN, envFile: env.RAMPART_API_TOKEN_FILE });
  if (!token) {
    throw new UsageError(
      'no API token: set RAMPART_API_TOKEN, RAMPART_API_TOKEN_FILE or --api-token-file (or use --emulator)',
    );
  }
  const secret = await readSecret('API secret', { file: sources.secretFile, value: env.RAMPART_API_SECRET, envFile: env.RAMPART_API_SECRET_FILE });
  const credentials = secret ? { token, secret } : { token };
  checkCredentials(credentials);
  return credentials;
}

/**
 * Throws a usage error when a value cannot be sent as an HTTP header: a control
 * character (NUL, CR, LF, DEL, ...) or a character beyond Latin-1. Says where in
 * the value, never the value.
 */
export function checkCredentials(credentials: Credentials): void {
  const named: [string, string | undefined][] = [['API token', credentials.token], ['API secret', credentials.secret]];
  for (const [what, value] of named) {
    if (value === undefined) continue;
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    const bad = /[\u0000-\u001f\u007f]|[^\u0000-\u00ff]/.exec(value);
    if (!bad) continue;
    const code = bad[0].codePointAt(0) ?? 0;
    const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new UsageError(
      `the ${what} holds a character that cannot be sent in an HTTP header (${name} at character ${bad.index + 1}); `
      + 'check the variable or file it comes from (only a trailing newline is trimmed)',
    );
  }
}

export interface SecretSources {
  /** A file named on the command line: wins over the rest. */
  readonly file?: string;
  /** The value itself (a flag or variable); blank counts as not given. */
  readonly value?: string;
  /** A file named by a variable: the last resort. */
  readonly envFile?: string;
}

/** The API's token and secret, and the emulator's, are read this one way; undefined when none is given. */
export async function readSecret(what: string, sources: SecretSources): Promise<string | undefined> {
  if (sources.file) return readSecretFile(what, sources.file);
  if (sources.value?.trim()) return sources.value.trim();
  if (sources.envFile) return readSecretFile(what, sources.envFile);
  return undefined;
}

async function readSecretFile(what: string, file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new FileError(`cannot read the ${what} file ${file}: ${reason}`, { cause: error });
  }
  const value = text.trim();
  if (!value) throw new UsageError(`the ${what} file ${file} is empty`);
  return value;
}
