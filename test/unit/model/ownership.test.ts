import { describe, expect, it } from 'vitest';
import { readOwnerMark, withOwnerMark } from '../../../src/model/ownership.js';

describe('owner mark', () => {
  it('appends the mark to text and reads it back', () => {
    const marked = withOwnerMark('flags a known scanner', { owner: 'rampart' });
    expect(marked).toBe('flags a known scanner [managed-by:rampart]');
    expect(readOwnerMark(marked)).toEqual({ text: 'flags a known scanner', owner: 'rampart' });
  });

  it('writes the bare mark when there is no text', () => {
    expect(withOwnerMark(undefined, { owner: 'team-a' })).toBe('[managed-by:team-a]');
    expect(readOwnerMark('[managed-by:team-a]')).toEqual({ owner: 'team-a' });
  });

  it('carries the fingerprint of the declaration and reads it back', () => {
    const marked = withOwnerMark('office', { owner: 'rampart', fingerprint: '0123456789abcdef' });
    expect(marked).toBe('office [managed-by:rampart fp:0123456789abcdef]');
    expect(readOwnerMark(marked)).toEqual({ text: 'office', owner: 'rampart', fingerprint: '0123456789abcdef' });
  });

  it('reads marks written before fingerprints existed, and ignores attributes it does not know', () => {
    expect(readOwnerMark('legacy [managed-by:rampart]')).toEqual({ text: 'legacy', owner: 'rampart' });
    expect(readOwnerMark('[managed-by:rampart fp:abc future:1]')).toEqual({ owner: 'rampart', fingerprint: 'abc' });
  });

  it('carries the rule name, percent-encoded so spaces and brackets cannot end the mark', () => {
    const marked = withOwnerMark('why', { owner: 'rampart', fingerprint: 'abc', name: 'block [old] admin' });
    expect(marked).toBe('why [managed-by:rampart fp:abc name:block%20%5Bold%5D%20admin]');
    expect(readOwnerMark(marked)).toEqual({ text: 'why', owner: 'rampart', fingerprint: 'abc', name: 'block [old] admin' });
  });

  it('treats unmarked or empty text as foreign', () => {
    expect(readOwnerMark('added by hand')).toEqual({ text: 'added by hand' });
    expect(readOwnerMark('')).toEqual({});
    expect(readOwnerMark(null)).toEqual({});
    expect(readOwnerMark('mentions [managed-by:rampart] in the middle')).toEqual({
      text: 'mentions [managed-by:rampart] in the middle',
    });
    expect(readOwnerMark('[managed-by:rampart fp:]')).toEqual({ text: '[managed-by:rampart fp:]' });
  });
});
