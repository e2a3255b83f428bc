/**
 * ajv errors → human messages at the right node. Raw ajv text says
 * "must NOT have additional properties"; a person wants "unknown key `regx`
 * in rules[0]; did you mean `regex`?" on the line of that key.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { didYouMean, closest } from '../grammar/suggest.js';
import type { SourceMap } from './source-map.js';
import type { Diagnostic } from '../diagnostic.js';

type AjvError = ErrorObject<string, Record<string, unknown>, unknown>;

export function schemaDiagnostics(file: string, data: unknown, map: SourceMap, errors: readonly AjvError[]): Diagnostic[] {
  // Alternatives (anyOf) report once, with the field's own message, not per branch.
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const relevant = errors.filter(
    (e) =>
      e.keyword !== 'if' &&
      !alternatives.some((a) => a !== e && (e.instancePath === a.instancePath || e.instancePath.startsWith(`${a.instancePath}/`))),
  );
  // A typo'd key explains the "missing" key it was meant to be: report only the typo.
  const suggested = new Set<string>();
  for (const e of relevant) {
    if (e.keyword !== 'additionalProperties') continue;
    const match = closest(String(e.params.additionalProperty), propertyNames(e.parentSchema));
    if (match !== undefined) suggested.add(`${e.instancePath}/${match}`);
  }

  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of relevant) {
    if (e.keyword === 'required' && suggested.has(`${e.instancePath}/${String(e.params.missingProperty)}`)) continue;
    const d = describe(e, data);
    const position = d.atKey ? map.key(d.pointer) : map.value(d.pointer);
    const key = `${position.line}:${position.col}:${d.code}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, line: position.line, col: position.col, severity: 'error', code: d.code, message: d.message });
  }
  return out;
}

interface Described {
  code: string;
  message: string;
  pointer: string;
  atKey?: boolean;
}

function describe(e: AjvError, data: unknown): Described {
  const at = e.instancePath;
  const label = labelOf(at);
  const isId = at === '/client' || at.startsWith('/application');
  const custom = xMessage(e.parentSchema);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(e.params.additionalProperty);
      const where = at === '' ? 'at the top level' : `in ${label}`;
      return {
        code: 'unknown-key',
        message: `unknown key "${key}" ${where}${didYouMean(key, propertyNames(e.parentSchema))}`,
        pointer: `${at}/${escape(key)}`,
        atKey: true,
      };
    }
    case 'required': {
      const key = String(e.params.missingProperty);
      const where = at === '' ? 'at the top level' : `in ${label}${ruleContext(at, data)}`;
      return { code: 'missing-key', message: `missing required key "${key}" ${where}`, pointer: at };
    }
    case 'false schema': {
      const key = at.slice(at.lastIndexOf('/') + 1);
      const parent = valueAt(data, at.slice(0, at.lastIndexOf('/')));
      // A rule's key another kind uses, or a union's key another branch uses (`name_regexps` with `mode: exact`).
      const where = !isRecord(parent) ? 'here'
        : typeof parent.type === 'string' ? `in a ${parent.type} rule`
        : typeof parent.mode === 'string' ? `in ${labelOf(at.slice(0, at.lastIndexOf('/')))} with mode ${parent.mode}` : 'here';
      return { code: 'not-allowed', message: `"${key}" is not allowed ${where}`, pointer: at, atKey: true };
    }
    case 'anyOf':
    case 'oneOf':
      return {
        code: isId ? 'invalid-id' : 'wrong-type',
        message: `${label} ${custom ?? 'does not match any allowed form'}, got ${show(e.data)}`,
        pointer: at,
      };
    case 'type': {
      const expected = ([] as unknown[]).concat(e.params.type).map((t) => typeName(String(t))).join(' or ');
      return {
        code: isId ? 'invalid-id' : 'wrong-type',
        message: `${label} ${custom ?? `must be ${expected}`}, got ${show(e.data)}${quoteHint(e)}`,
        pointer: at,
      };
    }
    case 'minimum':
      return { code: isId ? 'invalid-id' : 'invalid-value', message: `${label} ${custom ?? `must be at least ${String(e.params.limit)}`}, got ${show(e.data)}`, pointer: at };
    case 'maximum':
      // Past 2^53 a YAML integer is no longer the number written: it was read rounded.
      if (e.params.limit === Number.MAX_SAFE_INTEGER) {
        return { code: 'integer-too-large', message: `${label} is beyond ${Number.MAX_SAFE_INTEGER}, the largest integer read exactly (it reads as ${show(e.data)})`, pointer: at };
      }
      return { code: 'invalid-value', message: `${label} must be at most ${String(e.params.limit)}, got ${show(e.data)}`, pointer: at };
    case 'enum': {
      const allowed = (e.params.allowedValues as unknown[]).map(String);
      return {
        code: 'invalid-value',
        message: `${label} must be one of ${allowed.join(', ')}, got ${show(e.data)}${didYouMean(String(e.data), allowed)}`,
        pointer: at,
      };
    }
    case 'const':
      return { code: 'invalid-value', message: `${label} must be ${JSON.stringify(e.params.allowedValue)}, got ${show(e.data)}`, pointer: at };
    case 'minItems':
      return { code: 'invalid-value', message: `${label} must have at least ${String(e.params.limit)} item(s)`, pointer: at };
    case 'maxItems':
      return {
        code: 'invalid-value',
        message: at.includes('point') ? `${label}: a point element is [name] or [name, argument]` : `${label} must have at most ${String(e.params.limit)} items`,
        pointer: at,
      };
    case 'minLength':
      return { code: 'invalid-value', message: `${label} must not be empty`, pointer: at };
    case 'maxLength':
      return { code: 'invalid-value', message: `${label} must be at most ${String(e.params.limit)} characters`, pointer: at };
    case 'pattern':
      return { code: 'invalid-value', message: `${label} ${patternMessage(at)}, got ${show(e.data)}`, pointer: at };
    case 'uniqueItems':
      return { code: isId ? 'invalid-id' : 'invalid-value', message: `${label} lists ${show(valueAt(data, `${at}/${String(e.params.j)}`))} twice`, pointer: `${at}/${String(e.params.i)}` };
    default:
      return { code: 'schema', message: `${label} ${e.message ?? 'is invalid'}`, pointer: at };
  }
}

function patternMessage(at: string): string {
  if (at.endsWith('/attack')) return 'must be an attack type in lower case, such as any, scanner, sqli, xss';
  if (at.endsWith('/name')) return 'must be a single line';
  return 'has an invalid form';
}

/** `rules[0].when[1]` from `/rules/0/when/1`. */
export function labelOf(ptr: string): string {
  if (ptr === '') return 'the document';
  let out = '';
  for (const raw of ptr.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function ruleContext(at: string, data: unknown): string {
  const match = /^\/rules\/(\d+)$/.exec(at);
  if (!match) return '';
  const rule = valueAt(data, at);
  return isRecord(rule) && typeof rule.name === 'string' ? ` (rule "${rule.name}")` : '';
}

function quoteHint(e: AjvError): string {
  const wantsString = ([] as unknown[]).concat(e.params.type).includes('string');
  return wantsString && (typeof e.data === 'number' || typeof e.data === 'boolean') ? ' (quote it)' : '';
}

function typeName(type: string): string {
  const names: Record<string, string> = {
    integer: 'an integer', string: 'a string', array: 'a list', object: 'a mapping', boolean: 'true or false', number: 'a number', null: 'empty',
  };
  return names[type] ?? type;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return `a list ${truncate(JSON.stringify(value))}`;
  if (typeof value === 'object') return 'a mapping';
  return truncate(JSON.stringify(value));
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function propertyNames(schema: unknown): string[] {
  return isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : [];
}

function xMessage(schema: unknown): string | undefined {
  return isRecord(schema) && typeof schema['x-message'] === 'string' ? schema['x-message'] : undefined;
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function valueAt(data: unknown, ptr: string): unknown {
  if (ptr === '') return data;
  let current: unknown = data;
  for (const raw of ptr.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(part)];
    else if (isRecord(current) && Object.prototype.hasOwnProperty.call(current, part)) current = current[part];
    else return undefined;
  }
  return current;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
