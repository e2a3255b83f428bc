/**
 * MurmurHash3_x86_128 (Austin Appleby's, public domain, as in SMHasher's
 * MurmurHash3.cpp) fed 32-bit words rather than bytes: a stream of words
 * hashes exactly as its little-endian bytes would. Fast in plain JavaScript
 * (`Math.imul`, no allocation per value) and well distributed; not
 * cryptographic, so only for what detects accidental change, never forgery
 * (the plan's digests and checksum: `apply --plan` plans again and compares
 * the changes anyway).
 *
 * Values go in as typed words: a tag, then the payload. Strings carry their
 * length, so no sequence of values hashes like another.
 */

import { sortedKeys } from './sorted-keys.js';

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

// Tags: one word before each value (see `value`). Arbitrary, distinct, fixed by the plan format.
const NULL = 0x6e756c6c;
const FALSE = 0x66616c73;
const TRUE = 0x74727565;
const INT = 0x696e7433;
const FLOAT = 0x666c3634;
const STRING = 0x73747220;
const ARRAY = 0x61727279;
const OBJECT = 0x6f626a20;
const END = 0x656e6420;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A float's bytes, little-endian whatever the machine. */
const floatView = new DataView(new ArrayBuffer(8));

/** Words buffered before their blocks are mixed: a multiple of 4 (one block). */
const CAPACITY = 256;

export class Hash128 {
  private h1 = 0;
  private h2 = 0;
  private h3 = 0;
  private h4 = 0;
  /** Words not mixed yet: mixed a buffer at a time, in a loop over a typed array (faster than a call per word). */
  private readonly buffer = new Int32Array(CAPACITY);
  private buffered = 0;
  /** Words mixed before those buffered. */
  private mixed = 0;
  /** The hash `finish` computed, as four unsigned 32-bit words (h1..h4, the reference's output order). */
  out1 = 0;
  out2 = 0;
  out3 = 0;
  out4 = 0;

  constructor(seed = 0) {
    this.reset(seed);
  }

  reset(seed = 0): this {
    this.h1 = this.h2 = this.h3 = this.h4 = seed | 0;
    this.buffered = 0;
    this.mixed = 0;
    return this;
  }

  /** One 32-bit word (taken modulo 2^32). */
  word(w: number): void {
    if (this.buffered === CAPACITY) this.mixBlocks();
    this.buffer[this.buffered++] = w;
  }

  /** Mixes every whole block buffered; a partial one (the tail) stays, at the front. */
  private mixBlocks(): void {
    const buffer = this.buffer;
    const end = this.buffered & ~3;
    let { h1, h2, h3, h4 } = this;
    for (let i = 0; i < end; i += 4) {
      h1 ^= Math.imul(rotl(Math.imul(buffer[i] as number, C1), 15), C2);
      h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
      h2 ^= Math.imul(rotl(Math.imul(buffer[i + 1] as number, C2), 16), C3);
      h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
      h3 ^= Math.imul(rotl(Math.imul(buffer[i + 2] as number, C3), 17), C4);
      h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
      h4 ^= Math.imul(rotl(Math.imul(buffer[i + 3] as number, C4), 18), C1);
      h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
    this.h4 = h4;
    // At most three words stay (copyWithin, a builtin call, costs more than the hash of a short value).
    const rest = this.buffered - end;
    for (let i = 0; i < rest; i++) buffer[i] = buffer[end + i] as number;
    this.mixed += end;
    this.buffered = rest;
  }

  /** Ends the stream: the hash is in `out1..out4`; `reset` before the next. */
  finish(): this {
    this.mixBlocks();
    const buffer = this.buffer;
    const tail = this.buffered;
    let { h1, h2, h3, h4 } = this;
    // The tail: up to three words, each mixed into its own lane without the block's rounds.
    if (tail >= 3) h3 ^= Math.imul(rotl(Math.imul(buffer[2] as number, C3), 17), C4);
    if (tail >= 2) h2 ^= Math.imul(rotl(Math.imul(buffer[1] as number, C2), 16), C3);
    if (tail >= 1) h1 ^= Math.imul(rotl(Math.imul(buffer[0] as number, C1), 15), C2);
    const length = ((this.mixed + tail) * 4) >>> 0;
    h1 ^= length;
    h2 ^= length;
    h3 ^= length;
    h4 ^= length;
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h3 = fmix(h3);
    h4 = fmix(h4);
    h1 = (h1 + h2 + h3 + h4) | 0;
    this.out1 = h1 >>> 0;
    this.out2 = (h2 + h1) >>> 0;
    this.out3 = (h3 + h1) >>> 0;
    this.out4 = (h4 + h1) >>> 0;
    return this;
  }

  /** `out1..out4` as 32 hex digits, in the reference's byte order (little-endian words). */
  hex(): string {
    return [this.out1, this.out2, this.out3, this.out4].map(littleEndianHex).join('');
  }

  /** A string: its length, then its UTF-16 code units two to a word. */
  string(s: string): void {
    const n = s.length;
    this.word(n);
    let i = 0;
    // Straight into the buffer, a buffer's room at a time: no call and no check per word.
    while (i + 1 < n) {
      if (this.buffered === CAPACITY) this.mixBlocks();
      const buffer = this.buffer;
      let at = this.buffered;
      const stop = Math.min(n - 1, i + 2 * (CAPACITY - at));
      for (; i < stop; i += 2) buffer[at++] = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
      this.buffered = at;
    }
    if (i < n) this.word(s.charCodeAt(i));
  }

  /** A string or nothing (`undefined`), told apart from each other and from every string. */
  optionalString(s: string | undefined): void {
    if (s === undefined) {
      this.word(NULL);
    } else {
      this.word(STRING);
      this.string(s);
    }
  }

  /** A number: one word for a 32-bit integer, else the float's bits; what JSON cannot hold (NaN, ±Infinity) as its `null`. */
  number(n: number): void {
    if ((n | 0) === n) {
      this.word(INT);
      this.word(n);
    } else if (Number.isFinite(n)) {
      this.word(FLOAT);
      floatView.setFloat64(0, n, true);
      this.word(floatView.getInt32(0, true));
      this.word(floatView.getInt32(4, true));
    } else {
      this.word(NULL);
    }
  }

  /**
   * A JSON value: the same value gives the same words whatever order its
   * object members were built or parsed in (members go in sorted by name).
   * As in JSON, a member that is `undefined` is left out and an `undefined`
   * array element is `null`.
   */
  value(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.word(STRING);
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.word(v ? TRUE : FALSE);
        return;
      case 'object':
        if (v === null) break;
        if (Array.isArray(v)) {
          this.word(ARRAY);
          this.word(v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]);
          return;
        }
        this.members(v as Record<string, unknown>);
        return;
    }
    this.word(NULL);
  }

  private members(record: Record<string, unknown>): void {
    this.word(OBJECT);
    const keys = sortedKeys(Object.keys(record));
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const member = record[key];
      if (member === undefined) continue;
      this.string(key);
      this.value(member);
    }
    this.word(END);
  }
}

function littleEndianHex(w: number): string {
  const be = w.toString(16).padStart(8, '0');
  return be.slice(6, 8) + be.slice(4, 6) + be.slice(2, 4) + be.slice(0, 2);
}
