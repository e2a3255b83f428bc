/** The one string order of plans, exports and diagnostics: by UTF-16 code unit, never by locale (the same on every machine). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
