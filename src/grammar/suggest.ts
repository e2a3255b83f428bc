/** "Did you mean ...?" for misspelt keys and values. */
import type * as Levenshtein from 'fastest-levenshtein';
import { requireCommonJs } from '../commonjs.js';
import { VALUE_ALIASES } from './vocabulary.js';

const { distance } = requireCommonJs('fastest-levenshtein') as typeof Levenshtein;

/** The closest candidate, if it is close enough to be a likely typo. */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const needle = input.toLowerCase();
  const limit = Math.max(1, Math.floor(needle.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(needle, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `; did you mean "x"?` or the empty string: a name people use for a candidate first (VALUE_ALIASES), then the nearest spelling. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  const match = aliasOf(input, list) ?? closest(input, list);
  return match === undefined ? '' : `; did you mean "${match}"?`;
}

function aliasOf(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase().replace(/[\s-]+/g, '_');
  return candidates.find((candidate) => VALUE_ALIASES[candidate]?.some((alias) => alias.replace(/-/g, '_') === needle));
}
