/**
 * Outside text as each output shows it: control characters escaped for a
 * terminal, backticks too inside code, markdown's specials in prose and
 * tables, fences no content can close, and every value bounded.
 */
import { describe, expect, it } from 'vitest';
import { codeText, fencedBlock, inlineCode, markdownText, OUTSIDE_TEXT_MAX, terminalText } from '../../src/outside-text.js';

describe('outside text', () => {
  it('shows a terminal every control character escaped: no title, no clear screen, no line of its own', () => {
    expect(terminalText('/a\x1b]0;pwned\x07\x1b[2J\r\nPlan: 0 to create\x7f\x9b\u202e\u2028\\x')).toBe(
      '/a\\x1b]0;pwned\\x07\\x1b[2J\\r\\nPlan: 0 to create\\x7f\\x9b\\u202e\\u2028\\\\x',
    );
    expect(terminalText('/ünïcode/路径/🙂')).toBe('/ünïcode/路径/🙂');
    expect(terminalText('\ud800x')).toBe('\\ud800x');
  });

  it('escapes backticks inside code, so no value ends its fence', () => {
    expect(codeText('/a```\n# heading')).toBe('/a\\`\\`\\`\\n# heading');
  });

  it('escapes markdown in prose and tables: no heading, link, column or HTML', () => {
    expect(markdownText('# h [link](https://evil.example) | <img src=x> `c`\n')).toBe(
      '\\# h \\[link\\](https://evil.example) \\| &lt;img src=x&gt; \\`c\\`\\\\n',
    );
  });

  it('cuts every value to its bound, escapes included, with an ellipsis, never inside an escape', () => {
    const huge = `/${'a'.repeat(300_000)}`;
    for (const out of [terminalText(huge), codeText(huge), markdownText(huge)]) {
      expect(out.length).toBe(OUTSIDE_TEXT_MAX + 1);
      expect(out.endsWith('…')).toBe(true);
    }
    expect(terminalText('\x1b'.repeat(100), 10)).toBe('\\x1b\\x1b…');
    expect(terminalText('short', 10)).toBe('short');
  });

  it('fences a block and an inline span longer than any backtick run inside', () => {
    expect(fencedBlock('diff', 'a\n````\nb')).toBe('`````diff\na\n````\nb\n`````');
    expect(fencedBlock('text', 'plain')).toBe('```text\nplain\n```');
    expect(inlineCode('a``b')).toBe('``` a``b ```');
    expect(inlineCode('plain')).toBe('`plain`');
  });
});
