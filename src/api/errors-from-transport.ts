/**
 * A transport failure (undici or the operating system: no HTTP answer at all)
 * → one of the API error classes, with a message a person can act on: the host,
 * the cause in plain words, the call, and what to check. Also says whether the
 * request can have reached the server (`mayHaveBeenApplied`) and whether a
 * connection was made at all (`unreachable`: one-shot commands stop at once).
 */
import {
  type ApiError, type ApiErrorDetails, ApiNetworkError, ApiRequestError, ApiTimeoutError, ApiTlsError,
} from '../errors.js';

const CHECK_URL = 'check --api-url and that this machine can reach it (DNS, proxy, firewall, NetworkPolicy egress)';

/** Codes meaning no connection was made: the request was never sent. */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing listens on that port',
  ENOTFOUND: 'DNS knows no such host name',
  EAI_AGAIN: 'DNS could not resolve the host name for now',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'no connection within the connect timeout',
};

/** Timeouts after the request was sent: it may have been acted on. */
const TIMED_OUT: Readonly<Record<string, string>> = {
  UND_ERR_HEADERS_TIMEOUT: 'sent no answer within --request-timeout',
  UND_ERR_BODY_TIMEOUT: 'stopped sending its answer for longer than --request-timeout',
};

export function errorFromTransport(cause: unknown, details: ApiErrorDetails): ApiError {
  const code = (cause as { code?: string } | null)?.code ?? '';
  const text = cause instanceof Error ? cause.message.split('\n')[0]?.trim() ?? '' : String(cause);
  const call = details.route ?? details.method ?? 'the call';
  const host = details.host ?? 'the API';
  const tagged = code ? ` (${code})` : '';
  // undici refused the request before sending it: the same request fails the same way.
  if (code === 'UND_ERR_INVALID_ARG') {
    return new ApiRequestError(`${call} could not be sent: ${text}`, { ...details, cause });
  }
  if (isTlsFailure(code, text)) {
    return new ApiTlsError(
      `TLS handshake with ${host} failed during ${call}: ${text}${tagged}; ${tlsHint(code, text)}`,
      { ...details, cause, unreachable: true },
    );
  }
  const unreachable = UNREACHABLE[code];
  if (unreachable) {
    const full = { ...details, cause, unreachable: true };
    const message = `cannot connect to ${host} (${call}): ${unreachable}${tagged}; ${CHECK_URL}`;
    return code === 'UND_ERR_CONNECT_TIMEOUT' ? new ApiTimeoutError(message, full) : new ApiNetworkError(message, full);
  }
  const full = { ...details, cause, mayHaveBeenApplied: true };
  const timedOut = TIMED_OUT[code];
  if (timedOut) return new ApiTimeoutError(`${host} ${timedOut} to ${call}${tagged}`, full);
  return new ApiNetworkError(`${call} to ${host} failed: ${text}${tagged}`, full);
}

/** Node's certificate codes (`DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`, ...) and OpenSSL's `ERR_SSL_*`. */
function isTlsFailure(code: string, text: string): boolean {
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return true;
  if (/CERT|SIGNED|ISSUER|LEAF_SIGNATURE|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|HOSTNAME_MISMATCH/.test(code)) return true;
  return code === 'EPROTO' && /ssl|tls/i.test(text);
}

function tlsHint(code: string, text: string): string {
  if (/WRONG_VERSION_NUMBER|wrong version number|packet length too long/i.test(`${code} ${text}`)) {
    return 'the port answers plain HTTP, not HTTPS: check the scheme and port in --api-url';
  }
  return 'the certificate is not trusted here: check that --api-url names the API host itself; behind a TLS-inspecting proxy, '
    + 'give its CA certificate with NODE_EXTRA_CA_CERTS';
}
