/**
 * Turns an API answer (HTTP status, envelope body) into one of the error
 * classes of src/errors.ts, carrying the API's own message. Failures without an
 * answer are errors-from-transport.ts.
 */
import {
  ApiAuthError, ApiConflictError, type ApiError, type ApiErrorDetails, ApiLockedError,
  ApiNotFoundError, ApiProtocolError, ApiRateLimitedError, ApiServerError, ApiValidationError,
} from '../errors.js';

export function errorFromStatus(status: number, details: ApiErrorDetails & { retryAfter?: string }): ApiError {
  const where = details.route ?? details.method ?? 'the API';
  const said = describeBody(details.body);
  const message = (what: string) => `${what} (${where} answered ${status}${said ? `: ${said}` : ''})`;
  switch (true) {
    case status === 403 && refusesTheObject(details.body):
      // The token is fine: the service will not make this change (a counter cannot be updated).
      return new ApiValidationError(message('the service refuses this change of the object'), details);
    case status === 401 || status === 403:
      return new ApiAuthError(message('the API token is wrong or lacks rights for this account'), { ...details, tokenRejected: status === 401 });
    case status === 404:
      return new ApiNotFoundError(message('not found'), details);
    case status === 409:
      return new ApiConflictError(message('the object already exists'), details);
    case status === 423:
      return new ApiLockedError(message('rule updates are locked for now'), details);
    case status === 429:
      return new ApiRateLimitedError(message('rate limited'), { ...details, retryAfterMs: parseRetryAfter(details.retryAfter) });
    case status >= 500:
      // Any 5xx can come after the backend did the work (a gateway timing out,
      // a crash after the commit, a proxy answering 503 for a slow backend): a
      // create that got one is checked, not repeated.
      return new ApiServerError(message('the service failed'), { ...details, mayHaveBeenApplied: true });
    case status >= 400:
      return new ApiValidationError(message('the API rejected the request'), details);
    default:
      return new ApiProtocolError(message('unexpected answer'), details);
  }
}

/**
 * A 403 whose body names a field of the object (`{"base":{"error":"cannot be
 * updated"}}` for a counter) rather than the token's `permissions`: the
 * service's notes say it is "cannot be updated", not missing rights. The
 * field decides, never the phrase.
 */
function refusesTheObject(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const fields = Object.entries(body as Record<string, unknown>);
  const fieldError = (value: unknown) => value !== null && typeof value === 'object' && 'error' in value;
  return fields.length > 0 && fields.every(([field, value]) => field !== 'permissions' && fieldError(value));
}

/** Retry-After is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `{"field":{"error":"can't be blank"}}` → `field: can't be blank`; strings as they are. */
export function describeBody(body: unknown, depth = 0): string {
  if (body === null || body === undefined || depth > 3) return '';
  if (typeof body === 'string') return body.slice(0, 300);
  if (typeof body !== 'object') return String(body);
  if (Array.isArray(body)) return body.map((item) => describeBody(item, depth + 1)).filter(Boolean).join('; ');
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'error' || key === 'message' || key === 'reason') {
      parts.push(describeBody(value, depth + 1));
    } else {
      const inner = describeBody(value, depth + 1);
      parts.push(inner ? `${key}: ${inner}` : key);
    }
  }
  return parts.filter(Boolean).join(', ').slice(0, 300);
}
