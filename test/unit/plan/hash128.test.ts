import { describe, expect, it } from 'vitest';
import { Hash128 } from '../../../src/plan/hash128.js';

/*
 * MurmurHash3_x86_128 over bytes, transcribed line by line from the reference
 * (SMHasher's MurmurHash3.cpp), tail and all: the oracle the word-fed hasher
 * is checked against. It is checked itself by SMHasher's verification value.
 */
function reference(bytes: Uint8Array, seed: number): Uint8Array {
  const c1 = 0x239b961b;
  const c2 = 0xab0e9789;
  const c3 = 0x38b34ae5;
  const c4 = 0xa1e38b93;
  const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
  const fmix = (h: number) => {
    h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); return h ^ (h >>> 16);
  };
  const u32 = (i: number) => (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
  const len = bytes.length;
  const nblocks = Math.floor(len / 16);
  let h1 = seed; let h2 = seed; let h3 = seed; let h4 = seed;
  for (let i = 0; i < nblocks; i++) {
    let k1 = u32(i * 16); let k2 = u32(i * 16 + 4); let k3 = u32(i * 16 + 8); let k4 = u32(i * 16 + 12);
    k1 = Math.imul(k1, c1); k1 = rotl(k1, 15); k1 = Math.imul(k1, c2); h1 ^= k1;
    h1 = rotl(h1, 19); h1 = (h1 + h2) | 0; h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(k2, c2); k2 = rotl(k2, 16); k2 = Math.imul(k2, c3); h2 ^= k2;
    h2 = rotl(h2, 17); h2 = (h2 + h3) | 0; h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(k3, c3); k3 = rotl(k3, 17); k3 = Math.imul(k3, c4); h3 ^= k3;
    h3 = rotl(h3, 15); h3 = (h3 + h4) | 0; h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(k4, c4); k4 = rotl(k4, 18); k4 = Math.imul(k4, c1); h4 ^= k4;
    h4 = rotl(h4, 13); h4 = (h4 + h1) | 0; h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
  }
  const tail = nblocks * 16;
  const t = (i: number) => bytes[tail + i]!;
  let k1 = 0; let k2 = 0; let k3 = 0; let k4 = 0;
  const rest = len & 15;
  if (rest >= 15) k4 ^= t(14) << 16;
  if (rest >= 14) k4 ^= t(13) << 8;
  if (rest >= 13) { k4 ^= t(12); k4 = Math.imul(k4, c4); k4 = rotl(k4, 18); k4 = Math.imul(k4, c1); h4 ^= k4; }
  if (rest >= 12) k3 ^= t(11) << 24;
  if (rest >= 11) k3 ^= t(10) << 16;
  if (rest >= 10) k3 ^= t(9) << 8;
  if (rest >= 9) { k3 ^= t(8); k3 = Math.imul(k3, c3); k3 = rotl(k3, 17); k3 = Math.imul(k3, c4); h3 ^= k3; }
  if (rest >= 8) k2 ^= t(7) << 24;
  if (rest >= 7) k2 ^= t(6) << 16;
  if (rest >= 6) k2 ^= t(5) << 8;
  if (rest >= 5) { k2 ^= t(4); k2 = Math.imul(k2, c2); k2 = rotl(k2, 16); k2 = Math.imul(k2, c3); h2 ^= k2; }
  if (rest >= 4) k1 ^= t(3) << 24;
  if (rest >= 3) k1 ^= t(2) << 16;
  if (rest >= 2) k1 ^= t(1) << 8;
  if (rest >= 1) { k1 ^= t(0); k1 = Math.imul(k1, c1); k1 = rotl(k1, 15); k1 = Math.imul(k1, c2); h1 ^= k1; }
  h1 ^= len; h2 ^= len; h3 ^= len; h4 ^= len;
  h1 = (h1 + h2) | 0; h1 = (h1 + h3) | 0; h1 = (h1 + h4) | 0;
  h2 = (h2 + h1) | 0; h3 = (h3 + h1) | 0; h4 = (h4 + h1) | 0;
  h1 = fmix(h1); h2 = fmix(h2); h3 = fmix(h3); h4 = fmix(h4);
  h1 = (h1 + h2) | 0; h1 = (h1 + h3) | 0; h1 = (h1 + h4) | 0;
  h2 = (h2 + h1) | 0; h3 = (h3 + h1) | 0; h4 = (h4 + h1) | 0;
  const out = new Uint8Array(16);
  new DataView(out.buffer).setUint32(0, h1 >>> 0, true);
  new DataView(out.buffer).setUint32(4, h2 >>> 0, true);
  new DataView(out.buffer).setUint32(8, h3 >>> 0, true);
  new DataView(out.buffer).setUint32(12, h4 >>> 0, true);
  return out;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A deterministic word stream (xorshift), so a failure is the same on every run. */
function words(count: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: count }, () => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return x >>> 0;
  });
}

function bytesOf(stream: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(stream.length * 4);
  stream.forEach((w, i) => new DataView(bytes.buffer).setUint32(i * 4, w >>> 0, true));
  return bytes;
}

describe('Hash128', () => {
  it('transcribes MurmurHash3_x86_128: the oracle gives SMHasher\'s verification value', () => {
    // SMHasher's VerificationTest: keys 0..255 bytes long (key[i] = i), seed 256 - length; the hashes hashed again, seed 0.
    const key = Uint8Array.from({ length: 256 }, (_, i) => i);
    const hashes = new Uint8Array(16 * 256);
    for (let n = 0; n < 256; n++) hashes.set(reference(key.subarray(0, n), 256 - n), n * 16);
    const final = reference(hashes, 0);
    expect(new DataView(final.buffer).getUint32(0, true)).toBe(0xb3ece62a);
  });

  it('hashes a word stream as the reference hashes its little-endian bytes, at every length and tail', () => {
    const hash = new Hash128();
    // Past the hasher's buffer of 256 words too.
    for (const n of [...Array.from({ length: 41 }, (_, i) => i), 255, 256, 257, 258, 259, 511, 512, 513, 1000]) {
      for (const seed of [0, 1, 0x9747b28c]) {
        const stream = words(n, n * 7 + 1);
        hash.reset(seed);
        for (const w of stream) hash.word(w);
        expect(hash.finish().hex(), `${n} words, seed ${seed}`).toBe(hex(reference(bytesOf(stream), seed | 0)));
      }
    }
  });

  it('hashes a string as its length, then its UTF-16 code units two to a word, at every length', () => {
    const hash = new Hash128();
    for (const n of [0, 1, 2, 3, 254, 509, 510, 511, 512, 513, 1025]) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(0x20 + ((i * 7919) % 0xffd0))).join('');
      const stream = [n];
      for (let i = 0; i < n; i += 2) stream.push(text.charCodeAt(i) | ((i + 1 < n ? text.charCodeAt(i + 1) : 0) << 16));
      for (const lead of [0, 1, 2, 3, 200]) {
        hash.reset();
        for (let i = 0; i < lead; i++) hash.word(i);
        hash.string(text);
        const expected = new Hash128();
        for (const w of [...Array.from({ length: lead }, (_, i) => i), ...stream]) expected.word(w);
        expect(hash.finish().hex(), `${n} characters after ${lead} words`).toBe(expected.finish().hex());
      }
    }
  });

  it('tells values apart that JSON text would not confuse either', () => {
    const of = (...values: unknown[]) => {
      const hash = new Hash128();
      for (const v of values) hash.value(v);
      return hash.finish().hex();
    };
    const distinct = [
      of(), of(null), of(0), of(1), of(-1), of(0.5), of(2 ** 40), of(''), of('0'), of('a'), of('ab'), of('ab', ''), of('', 'ab'),
      of('a', 'b'), of(true), of(false), of([]), of({}), of([null]), of([[]]), of([], []), of({ a: 1 }), of({ a: '1' }),
      of({ a: 1, b: 2 }), of({ ab: 1 }), of(['a', 1]), of([1, 'a']), of('\u0000'), of('é'), of('e\u0301'),
    ];
    expect(new Set(distinct).size).toBe(distinct.length);
    // As in JSON: member order does not count, `undefined` members are absent, `undefined` elements null.
    expect(of({ a: 1, b: [2, { c: 3, d: 4 }] })).toBe(of({ b: [2, { d: 4, c: 3 }], a: 1 }));
    expect(of({ a: 1, b: undefined })).toBe(of({ a: 1 }));
    expect(of([undefined])).toBe(of([null]));
    expect(of(-0)).toBe(of(0));
    expect(of(Number.NaN)).toBe(of(null));
  });
});
