/**
 * Answers that are not the API's JSON: an HTML page (a wrong `--api-url`: the
 * console, a load balancer's default site, a login portal), a redirect, plain
 * text from a proxy. Told as its first line (and an HTML page's title), never
 * dumped whole, with the setting to check.
 */
import { type ApiErrorDetails, ApiProtocolError } from '../errors.js';

const MAX_SHOWN = 120;

export const CHECK_API_URL = 'check that --api-url is the API base URL of your cloud (not the console or another site)';

export interface AnswerFacts {
  readonly host: string;
  readonly route: string;
  readonly httpStatus: number;
  readonly contentType?: string;
  /** Where a 3xx points. */
  readonly location?: string;
}

/** `first line "<!DOCTYPE html>", title "404 Not Found"`: what a person recognizes a page by. */
export function describeNonJson(text: string): string {
  const line = text.split(/\r?\n/).map((part) => part.trim()).find(Boolean);
  if (line === undefined) return 'an empty body';
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return `first line "${clip(line)}"${title ? `, title "${clip(title)}"` : ''}`;
}

export function notJsonError(text: string, facts: AnswerFacts, details: ApiErrorDetails): ApiProtocolError {
  const type = facts.contentType ? ` (${facts.contentType.split(';')[0]})` : '';
  return new ApiProtocolError(
    `${facts.host} answered ${facts.route} with HTTP ${facts.httpStatus} and a body that is not JSON${type}: `
    + `${describeNonJson(text)}; ${CHECK_API_URL}`,
    { ...details, body: clip(text) },
  );
}

/** JSON, or nothing, but not the `{status, body}` envelope: another API, or a redirect. */
export function noEnvelopeError(facts: AnswerFacts, details: ApiErrorDetails): ApiProtocolError {
  const redirect = facts.location ? ` (a redirect to ${clip(facts.location)}: put that address in --api-url)` : '';
  return new ApiProtocolError(
    `${facts.host} answered ${facts.route} with HTTP ${facts.httpStatus} without the {status, body} envelope of the API${redirect}; ${CHECK_API_URL}`,
    details,
  );
}

function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
