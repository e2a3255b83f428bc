/**
 * The answers of the `oversize` and `gzip-bomb` faults: an envelope far larger
 * than any real page, sent without ever holding it whole in memory (the bomb is
 * compressed once per size and kept, a few hundred KiB per GiB).
 */
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';

const CHUNK = Buffer.alloc(1024 * 1024, 'a');
const PREFIX = Buffer.from('{"status":200,"body":"');
const SUFFIX = Buffer.from('"}');
const bombs = new Map<number, Promise<Buffer>>();

/** The parts of a JSON envelope `{"status":200,"body":"aaa…"}` of exactly `bytes` bytes. */
function* envelopeParts(bytes: number): Generator<Buffer> {
  yield PREFIX;
  let left = bytes - PREFIX.length - SUFFIX.length;
  while (left > 0) {
    const part = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
    left -= part.length;
    yield part;
  }
  yield SUFFIX;
}

/** Streams an envelope of `bytes` bytes with chunked encoding; stops when the client goes away. */
export async function sendOversize(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  for (const part of envelopeParts(bytes)) {
    if (res.destroyed) return;
    if (!res.write(part)) await drainedOrClosed(res);
  }
  res.end();
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A gzip body that unzips to an envelope of `bytes` bytes. */
export async function sendGzipBomb(res: ServerResponse, bytes: number): Promise<void> {
  let bomb = bombs.get(bytes);
  if (!bomb) {
    bomb = compress(bytes);
    bombs.set(bytes, bomb);
  }
  const body = await bomb;
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length });
  res.end(body);
}

async function compress(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const done = once(gzip, 'end');
  for (const part of envelopeParts(bytes)) {
    if (!gzip.write(part)) await once(gzip, 'drain');
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}
