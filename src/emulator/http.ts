/** Reading bounded request bodies and writing envelope responses (gzip when asked). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { HttpError, invalid } from './envelope.js';

const gzipAsync = promisify(gzip);
/** Below this, compressing costs more than it saves. */
const GZIP_MIN_BYTES = 1024;

/** The raw body; 413 as soon as it is known to exceed `maxBytes` (header or stream). */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new HttpError(413, `Request body larger than ${maxBytes} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
      failed = true;
    });
  });
}

/** JSON body or undefined when empty; 400 in the service's shape when malformed. */
export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    throw invalid('body', `malformed JSON: ${(error as Error).message}`);
  }
}

export async function sendEnvelope(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  /** When the HTTP status differs from the envelope's `status` (a 200 carrying an inner error). */
  httpStatus: number = status,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  let payload: Buffer = Buffer.from(JSON.stringify({ status, body }));
  const out: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', ...headers };
  if (payload.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers['accept-encoding'])) {
    payload = await gzipAsync(payload);
    out['content-encoding'] = 'gzip';
    out.vary = 'accept-encoding';
  }
  out['content-length'] = payload.length;
  res.writeHead(httpStatus, out);
  res.end(payload);
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
