/**
 * `\s` of a JavaScript regex, by character code: ASCII and Unicode white
 * space, line terminators and the byte order mark. For scans that replaced a
 * regex on a hot path and must read exactly what it read.
 */
export function isWhiteSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
