/** Rules between the fields of a kind, as data the kind module lists, and checks fields share. */
import { regexProblem, REGEX_DIALECT } from '../grammar/regex.js';
import type { KindCheck } from './kind.js';

/** A text field that holds a regular expression: it must compile. */
export const compilesAsRegex = {
  code: 'invalid-regex',
  problem: (value: string): string | undefined => {
    const problem = regexProblem(value);
    return problem && `regex does not compile (${REGEX_DIALECT}): ${problem}`;
  },
} as const;

/**
 * Which keys of the object field `field` each value of `by` allows:
 * `allowedKeysByMode('reaction', { block: ['block_by_ip'], … })`. A key
 * another value allows is reported at that key.
 */
export function allowedKeysByMode(field: string, allowed: Readonly<Record<string, readonly string[]>>, by = 'mode'): KindCheck {
  return {
    description: `\`${field}\` keys by \`${by}\`: ${Object.entries(allowed).map(([mode, keys]) => `\`${mode}\` takes ${keys.map((k) => `\`${k}\``).join(' or ')}`).join('; ')}.`,
    problems: (rule) => {
      const mode = rule[by];
      const value = rule[field];
      const keys = typeof mode === 'string' ? allowed[mode] : undefined;
      if (keys === undefined || typeof value !== 'object' || value === null) return [];
      return Object.keys(value)
        .filter((key) => !keys.includes(key))
        .map((key) => ({
          code: 'not-allowed-by-mode',
          message: `"${key}" is not allowed in ${field} when ${by} is ${mode}: ${mode} takes ${keys.join(' or ')}`,
          at: [field, key],
          atKey: true,
        }));
    },
  };
}
