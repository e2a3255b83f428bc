/**
 * JSON with object keys sorted at every level and `undefined` members left out:
 * the same value always gives the same bytes, whatever order it was built or
 * parsed in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return value === undefined ? 'null' : JSON.stringify(value);
  }
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
    out += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * `canonicalJson(a) === canonicalJson(b)`, without printing either: a saved
 * plan's changes are compared with the recomputed ones, tens of MB as text.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return sameScalar(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Every member of one is in the other, `undefined` ones absent on both sides.
  let count = 0;
  for (const key of Object.keys(x)) {
    const member = x[key];
    if (member === undefined) continue;
    count++;
    const other = Object.hasOwn(y, key) ? y[key] : undefined;
    if (other === undefined || !sameJson(member, other)) return false;
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) count--;
  return count === 0;
}

/** As JSON prints them: `undefined`, NaN and ±Infinity are `null`. */
function sameScalar(a: unknown, b: unknown): boolean {
  const nullish = (v: unknown) => v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v));
  return nullish(a) && nullish(b);
}
