/** "Did you mean": the service's name for what people call a value first, then the nearest spelling. */
import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../../src/grammar/suggest.js';
import { PATCH_ATTACK_TYPES } from '../../../src/grammar/vocabulary.js';

describe('didYouMean', () => {
  it.each([
    ['sqlinjection', 'sqli'], ['SQL-Injection', 'sqli'], ['path_traversal', 'ptrav'], ['open_redirect', 'redir'], ['xml_external_entity', 'xxe'],
  ])('%s → %s, the service\'s name, not the nearest spelling', (input, expected) => {
    expect(didYouMean(input, PATCH_ATTACK_TYPES)).toBe(`; did you mean "${expected}"?`);
  });

  it('falls back to the nearest spelling for a typo, and says nothing when nothing is close', () => {
    expect(didYouMean('sqlli', PATCH_ATTACK_TYPES)).toBe('; did you mean "sqli"?');
    expect(didYouMean('banana', PATCH_ATTACK_TYPES)).toBe('');
  });
});
