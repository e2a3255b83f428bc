/**
 * The credentials Rampart was given, and the one function that takes them out
 * of text it prints. A server or proxy that echoes the token in an error body
 * must not get it into CLI errors, log lines or the daemon's /readyz: API
 * errors are built through it (errors.ts) and every log line passes it (log.ts).
 */

export const REDACTED = '[redacted]';

/** Shorter values would blank out ordinary words; they are no secret worth the name anyway. */
const MIN_LENGTH = 4;

const known = new Set<string>();

export function registerSecret(value: string | undefined): void {
  if (value === undefined || value.length < MIN_LENGTH) return;
  known.add(value);
  // As it reads inside a JSON string (a log line, an error body quoted in JSON).
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) known.add(escaped);
}

export function redactSecrets(text: string): string {
  if (known.size === 0) return text;
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Strings inside a parsed body, redacted; other values as they are. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (known.size === 0 || depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, redactSecrets(key), { value: redactDeep(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Options and variables that name a file holding a secret. */
const SECRET_FILE_OPTIONS = ['--api-token-file', '--api-secret-file', '--admin-token-file'] as const;
const SECRET_FILE_VARIABLES = ['RAMPART_API_TOKEN_FILE', 'RAMPART_API_SECRET_FILE', 'RAMPART_ADMIN_TOKEN_FILE'] as const;
const SECRET_VARIABLES = ['RAMPART_API_TOKEN', 'RAMPART_API_SECRET', 'GITHUB_TOKEN', 'RAMPART_GITLAB_TOKEN', 'GITLAB_TOKEN'] as const;

/**
 * Every secret the command line and environment name, registered before any
 * command runs: `validate` never builds an API client, yet a policy file that
 * is a link to the token file must not print the token. A file that cannot be
 * read is skipped here; the command that needs it says why.
 */
export function registerSecretSources(argv: readonly string[], env: NodeJS.ProcessEnv, read: (file: string) => string): void {
  for (const name of SECRET_VARIABLES) registerSecret(env[name]?.trim());
  const files = SECRET_FILE_VARIABLES.flatMap((name) => (env[name] ? [env[name]] : []));
  argv.forEach((arg, index) => {
    for (const option of SECRET_FILE_OPTIONS) {
      if (arg === option && argv[index + 1] !== undefined) files.push(argv[index + 1] as string);
      else if (arg.startsWith(`${option}=`)) files.push(arg.slice(option.length + 1));
    }
  });
  for (const file of files) {
    try {
      registerSecret(read(file).trim());
    } catch {
      // Unreadable: the command that reads it reports it.
    }
  }
}
