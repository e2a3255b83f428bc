import { describe, expect, it } from 'vitest';
import { readOwnerMark, withOwnerMark } from '../../../src/model/ownership.js';

describe('owner mark', () => {
  it('appends the mark to text and reads it back', () => {
    const marked = withOwnerMark('flags a known scanner', 'rampart');
    expect(marked).toBe('flags a known scanner [managed-by:rampart]');
    expect(readOwnerMark(marked)).toEqual({ text: 'flags a known scanner', owner: 'rampart' });
  });

  it('writes the bare mark when there is no text', () => {
    expect(withOwnerMark(undefined, 'team-a')).toBe('[managed-by:team-a]');
    expect(readOwnerMark('[managed-by:team-a]')).toEqual({ owner: 'team-a' });
  });

  it('treats unmarked or empty text as foreign', () => {
    expect(readOwnerMark('added by hand')).toEqual({ text: 'added by hand' });
    expect(readOwnerMark('')).toEqual({});
    expect(readOwnerMark(null)).toEqual({});
    expect(readOwnerMark('mentions [managed-by:rampart] in the middle')).toEqual({
      text: 'mentions [managed-by:rampart] in the middle',
    });
  });
});
