/**
 * A value from the service (a host, a path, a point) as printed outside YAML:
 * control characters, line breaks and backticks escaped, so a hostile host
 * cannot move a terminal's cursor or break out of the code fence the tune pull
 * request wraps the output in. YAML output quotes such values itself.
 */
export function shown(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this escapes
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029`\\]/g, (char) => (char === '`' ? '\\`' : char === '\\' ? '\\\\' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
