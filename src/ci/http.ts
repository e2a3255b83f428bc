/** A minimal JSON-over-fetch helper for the forge APIs; never logs or echoes the token. */
import { ForgeApiError } from '../errors.js';

export interface JsonResponse<T> {
  readonly status: number;
  readonly body: T;
}

export async function requestJson<T>(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  options: { allow?: readonly number[]; timeoutMs?: number } = {},
): Promise<JsonResponse<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { accept: 'application/json', 'user-agent': 'rampart-ci', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (error) {
    throw new ForgeApiError(`${method} ${redact(url)} failed: ${(error as Error).message}`, undefined, { cause: error });
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok && !(options.allow ?? []).includes(response.status)) {
    const detail = typeof parsed === 'object' && parsed !== null && 'message' in parsed ? String((parsed as { message: unknown }).message) : text.slice(0, 200);
    const hint = response.status === 401 || response.status === 403 || response.status === 404
      ? ' (check the token and its permissions: pull-requests/issues write on GitHub, api scope on GitLab)'
      : '';
    throw new ForgeApiError(`${method} ${redact(url)} answered ${response.status}: ${detail}${hint}`, response.status);
  }
  return { status: response.status, body: parsed as T };
}

/** Query strings never carry tokens here, but keep messages short and clean. */
function redact(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
