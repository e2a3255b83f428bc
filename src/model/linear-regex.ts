/**
 * The service's regexes (a rule's `regex`, a scope's `regex` condition) run on
 * recorded values, which anyone who can send the protected site a request
 * chooses. A backtracking engine (JavaScript's RegExp) takes exponential time
 * on nested quantifiers: `^(a+)+$` against 41 bytes never ends, and no timer
 * can interrupt it. So they run on RE2's linear-time engine (re2js, a pure
 * JavaScript port of RE2/J: no native build), each pattern compiled once.
 *
 * What RE2 cannot take (lookaround, backreferences, possessive quantifiers and
 * atomic groups: PCRE's own syntax) is never handed to a backtracking engine
 * instead: `linearRegex` says why, and the caller reports the change or the
 * condition as not evaluable. Validation still checks such patterns with
 * RegExp (regex.ts): compiling is safe, running them on hostile text is not.
 */
import type { RE2JS } from 're2js';
import { requireCommonJs } from '../commonjs.js';

/** A compiled pattern: whether it matches anywhere in a value, in time linear in the value. */
export interface LinearRegex {
  test(value: string): boolean;
}

export type CompiledRegex =
  | { readonly ok: true; readonly regex: LinearRegex }
  | { readonly ok: false; readonly problem: string };

/** Patterns come from policies and the service's rules: few, but a long-lived process must not keep every one it ever saw. */
const CACHE_MAX = 4096;
const cache = new Map<string, CompiledRegex>();

let engine: typeof RE2JS | undefined;

/**
 * Loaded at the first pattern, not at start: about 9 ms and 1.5 MB of heap
 * that validate, export and the daemon never use.
 */
function re2(): typeof RE2JS {
  engine ??= (requireCommonJs('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

/** The pattern as the service writes it (PCRE; its leading `(?i)` is RE2's too), compiled for linear-time matching, or why it cannot be. */
export function linearRegex(source: string): CompiledRegex {
  let compiled = cache.get(source);
  if (compiled) return compiled;
  try {
    compiled = { ok: true, regex: re2().compile(source) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    compiled = { ok: false, problem: message.replace(/^error parsing regexp: /, '') };
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

/** Why a pattern cannot run in linear time, for a not-evaluable reason; undefined when it can. */
export function linearRegexProblem(source: string): string | undefined {
  const compiled = linearRegex(source);
  return compiled.ok ? undefined : `${compiled.problem} (only linear-time RE2 syntax runs on recorded values: no lookaround or backreferences)`;
}
