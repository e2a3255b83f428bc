/**
 * JSON with object keys sorted at every level and `undefined` members left out:
 * the same value always gives the same bytes, whatever order it was built or
 * parsed in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  // Plain loops and one string: a saved plan's changes are compared this way, every member of them.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${first ? '' : ','}${quoted(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${out}}`;
}

/** Member names repeat in every change of a plan: each is quoted once (a few dozen names; the cache is capped). */
const quotedKeys = new Map<string, string>();
function quoted(key: string): string {
  let text = quotedKeys.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quotedKeys.size < 1000) quotedKeys.set(key, text);
  }
  return text;
}
