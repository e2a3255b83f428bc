/**
 * Reads a response body with a bound on its size, as sent and as unzipped: a
 * huge listing or a gzip bomb from a broken server or proxy fails the call
 * instead of growing the process to gigabytes. A plain body is decoded chunk
 * by chunk as it arrives, never copied into one buffer first: the copy doubled
 * what a listing held outside the JavaScript heap, which the collector frees
 * only late (tens of MB while `--impact` read 100 pages of hits).
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

/** A body as text (UTF-8, invalid sequences replaced, as Buffer's toString does), and its size as received. */
export interface ResponseBody {
  readonly text: string;
  readonly bytes: number;
}

export async function readResponseBody(
  response: Dispatcher.ResponseData,
  route: string,
  maxBytes: number = MAX_RESPONSE_BYTES,
): Promise<ResponseBody> {
  const tooLarge = (what: string) =>
    new ApiProtocolError(`${route} answered more than ${describeBytes(maxBytes)}${what ? ` ${what}` : ''}; refusing to read it`, { route, httpStatus: response.statusCode });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    throw tooLarge('(by its Content-Length)');
  }
  const zipped = String(response.headers['content-encoding'] ?? '').includes('gzip');
  const chunks: Buffer[] = [];
  // A byte-order mark stays in the text, as toString keeps it: such a body is not JSON.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      response.body.destroy();
      throw tooLarge('');
    }
    if (zipped) chunks.push(chunk);
    else text += decoder.decode(chunk, { stream: true });
  }
  if (!zipped) return { text: text + decoder.decode(), bytes };
  try {
    const unzipped = await gunzipAsync(Buffer.concat(chunks, bytes), { maxOutputLength: maxBytes });
    return { text: unzipped.toString('utf8'), bytes };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('once unzipped');
    throw error;
  }
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
