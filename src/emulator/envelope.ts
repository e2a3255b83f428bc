/**
 * The service answers every call with `{"status": <int>, "body": <any>}`; errors
 * are thrown as `HttpError` and turned into that envelope by the server.
 */

export interface Envelope {
  readonly status: number;
  readonly body: unknown;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpError';
  }
}

/**
 * 400 in the service's validation shape: `{"field":{"error":"..."}}`, nested
 * along `path` (`['ip_rule','subnet']` → `{"ip_rule":{"subnet":{"error":...}}}`).
 */
export function invalid(path: string | readonly string[], message: string): HttpError {
  const parts = typeof path === 'string' ? [path] : path;
  let body: unknown = { error: message };
  for (let i = parts.length - 1; i >= 0; i--) body = { [parts[i] ?? 'body']: body };
  return new HttpError(400, body);
}

export const AUTH_FAILED_BODY = {
  permissions: { error: 'invalid', reason: 'check access failed' },
} as const;

export function unauthorized(): HttpError {
  return new HttpError(401, AUTH_FAILED_BODY);
}

export function forbidden(): HttpError {
  return new HttpError(403, AUTH_FAILED_BODY);
}
