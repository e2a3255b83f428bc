import { describe, expect, it } from 'vitest';
import { commentBody, decideComment, MAX_COMMENT_CHARS, PLAN_MARKER, type ExistingComment } from '../../../src/ci/pr-comment.js';
import { MARKDOWN_MARKER } from '../../../src/plan/render/markdown.js';

const BOT = 'github-actions[bot]';
const body = `${PLAN_MARKER}\n### Rampart plan\n2 to create\n`;
const comment = (id: number, text: string, author = BOT, createdAt?: string): ExistingComment => ({
  id, body: text, author, ...(createdAt ? { createdAt } : {}),
});

describe('decideComment', () => {
  it('uses the marker the markdown renderer writes', () => {
    expect(PLAN_MARKER).toBe(MARKDOWN_MARKER);
  });

  it('creates when no comment carries the marker', () => {
    expect(decideComment([], body, { author: BOT })).toEqual({ action: 'create' });
    expect(decideComment([comment(1, 'LGTM'), comment(2, 'looks fine', 'alice')], body, { author: BOT })).toEqual({ action: 'create' });
  });

  it('updates our marked comment in place', () => {
    const existing = [comment(1, 'LGTM', 'alice'), comment(7, `${PLAN_MARKER}\nold plan`)];
    expect(decideComment(existing, body, { author: BOT })).toEqual({ action: 'update', id: 7 });
  });

  it('ignores a marked comment by someone else', () => {
    const existing = [comment(3, `${PLAN_MARKER}\nquoted by a person`, 'alice')];
    expect(decideComment(existing, body, { author: BOT })).toEqual({ action: 'create' });
    expect(decideComment(existing, body)).toEqual({ action: 'update', id: 3 });
  });

  it('with several marked comments, updates the newest and leaves the others', () => {
    const existing = [
      comment(10, `${PLAN_MARKER}\nfirst`, BOT, '2026-01-01T10:00:00Z'),
      comment(30, `${PLAN_MARKER}\nthird`, BOT, '2026-01-01T09:00:00Z'),
      comment(20, `${PLAN_MARKER}\nsecond`, BOT, '2026-01-01T11:00:00Z'),
    ];
    expect(decideComment(existing, body, { author: BOT })).toEqual({ action: 'update', id: 20 });
    // Without timestamps the highest id is the newest.
    expect(decideComment(existing.map(({ createdAt: _, ...c }) => c), body, { author: BOT })).toEqual({ action: 'update', id: 30 });
  });

  it('does nothing when the body is unchanged (line endings and trailing space aside)', () => {
    expect(decideComment([comment(5, body)], body, { author: BOT })).toEqual({ action: 'none', id: 5 });
    expect(decideComment([comment(5, `${body.replace(/\n/g, '\r\n')}  \n`)], body, { author: BOT })).toEqual({ action: 'none', id: 5 });
  });

  it('honours a custom marker', () => {
    const existing = [comment(9, '<!-- rampart-plan:staging -->\nx')];
    expect(decideComment(existing, 'y', { marker: '<!-- rampart-plan:staging -->' })).toEqual({ action: 'update', id: 9 });
    expect(decideComment(existing, 'y')).toEqual({ action: 'create' });
  });
});

describe('commentBody', () => {
  it('adds the marker when the text lacks it', () => {
    expect(commentBody('plain plan')).toBe(`${PLAN_MARKER}\nplain plan`);
    expect(commentBody(body)).toBe(body);
  });

  it('cuts an over-long plan to the forge limit, keeping the marker and saying so', () => {
    const long = `${PLAN_MARKER}\n${'| create | rule | x |\n'.repeat(10_000)}`;
    const cut = commentBody(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(cut.startsWith(PLAN_MARKER)).toBe(true);
    expect(cut).toContain('too long for a comment');
    expect(cut).toMatch(/\| x \|\n\n…/);
  });
});
