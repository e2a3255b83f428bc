/**
 * Policy files are UTF-8. A byte sequence that is not UTF-8 would otherwise be
 * decoded to U+FFFD and written to the account as such; it is an error at the
 * line:col of the first bad byte instead.
 */
import type { Position } from './types.js';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

export type Decoded = { ok: true; text: string } | { ok: false; position: Position };

export function decodeUtf8(bytes: Uint8Array): Decoded {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    const before = lenient.decode(bytes.subarray(0, offset));
    const lineStart = before.lastIndexOf('\n') + 1;
    return { ok: false, position: { line: before.split('\n').length, col: before.length - lineStart + 1 } };
  }
}

/** Offset of the first byte that does not begin or continue a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let good = 0;
  while (good < bytes.length) {
    const width = sequenceWidth(bytes, good);
    if (width === 0) return good;
    good += width;
  }
  return good;
}

/** Length of the well-formed sequence at `at` (RFC 3629 table), or 0. */
function sequenceWidth(bytes: Uint8Array, at: number): number {
  const first = bytes[at] ?? 0;
  const [width, low, high] =
    first < 0x80 ? [1, 0, 0]
      : first >= 0xc2 && first <= 0xdf ? [2, 0x80, 0xbf]
        : first === 0xe0 ? [3, 0xa0, 0xbf]
          : first === 0xed ? [3, 0x80, 0x9f]
            : first >= 0xe1 && first <= 0xef ? [3, 0x80, 0xbf]
              : first === 0xf0 ? [4, 0x90, 0xbf]
                : first === 0xf4 ? [4, 0x80, 0x8f]
                  : first >= 0xf1 && first <= 0xf3 ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
  if (width <= 1) return width;
  const second = bytes[at + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let i = 2; i < width; i++) {
    const next = bytes[at + i];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return width;
}
