/**
 * Where the API token and secret come from: a file (Kubernetes Secret volumes,
 * Docker secrets) or the environment. Values are trimmed of the newline most
 * editors and `echo` leave behind. They are never logged.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

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
  const token = await firstValue('API token', sources.tokenFile, env.RAMPART_API_TOKEN, env.RAMPART_API_TOKEN_FILE);
  if (!token) {
    throw new UsageError(
      'no API token: set RAMPART_API_TOKEN, RAMPART_API_TOKEN_FILE or --api-token-file (or use --emulator)',
    );
  }
  const secret = await firstValue('API secret', sources.secretFile, env.RAMPART_API_SECRET, env.RAMPART_API_SECRET_FILE);
  return secret ? { token, secret } : { token };
}

async function firstValue(
  what: string,
  flagFile: string | undefined,
  envValue: string | undefined,
  envFile: string | undefined,
): Promise<string | undefined> {
  if (flagFile) return readSecretFile(what, flagFile);
  if (envValue?.trim()) return envValue.trim();
  if (envFile) return readSecretFile(what, envFile);
  return undefined;
}

async function readSecretFile(what: string, file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read the ${what} file ${file}: ${reason}`, { cause: error });
  }
  const value = text.trim();
  if (!value) throw new UsageError(`the ${what} file ${file} is empty`);
  return value;
}
