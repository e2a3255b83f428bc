/**
 * Reads a response body with a bound on its size, as sent and as unzipped: a
 * huge listing or a gzip bomb from a broken server or proxy fails the call
 * instead of growing the process to gigabytes.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { ApiProtocolError } from '../errors.js';

const gunzipAsync = promisify(gunzip);

/**
 * The largest legitimate page is well under 10 MiB (1000 rules of 60 conditions
 * with long values; 300 IP objects are far less); typical pages are under 1 MiB.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export async function readResponseBody(
  response: Dispatcher.ResponseData,
  route: string,
  maxBytes: number = MAX_RESPONSE_BYTES,
): Promise<Buffer> {
  const tooLarge = (what: string) =>
    new ApiProtocolError(`${route} answered more than ${describeBytes(maxBytes)}${what ? ` ${what}` : ''}; refusing to read it`, { route, httpStatus: response.statusCode });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    throw tooLarge('(by its Content-Length)');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.body.destroy();
      throw tooLarge('');
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks, size);
  if (!String(response.headers['content-encoding'] ?? '').includes('gzip')) return raw;
  try {
    return await gunzipAsync(raw, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('once unzipped');
    throw error;
  }
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
