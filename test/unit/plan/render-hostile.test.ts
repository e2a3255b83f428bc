/**
 * Recorded paths chosen to hurt the people who read a plan: control
 * characters that set a terminal's title, clear its screen and draw a fake
 * closing line; a fence, a heading and a link that would break out of the
 * comment's code block; a 300 KB path that filled the comment. In the text
 * plan and in the comment, cut or not, each shows as inert, bounded text.
 */
import { describe, expect, it } from 'vitest';
import { MAX_COMMENT_CHARS } from '../../../src/ci/pr-comment.js';
import type { Change } from '../../../src/model/change.js';
import { encodePlan } from '../../../src/plan/codec.js';
import type { Impact, Plan } from '../../../src/plan/model.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

const CONTROLS = '/x\x1b]0;pwned\x07\x1b[2J\x1b[H\r\nPlan: 0 to create, 0 to update, 0 to delete, 0 unchanged (0 API calls).\n';
const FENCE = '/y\n```\n# Approved by security\n[click to approve](https://evil.example/approve)\n```diff\n';
const HUGE = `/${'z'.repeat(300 * 1024)}`;

function planOf(rules: number): Plan {
  const body = Array.from({ length: rules }, (_, i) => `  - { name: patch-${i}, type: vpatch, attack: sqli, point: [[get, q]], when: [{ url: shop.example.com/api/p${i} }] }\n`).join('');
  const loaded = loadPolicyTexts([{ file: 'policies/shop.yaml', text: `version: 1\nclient: 10042\napplication: 7\nrules:\n${body}` }]);
  if (!loaded.desired) throw new Error(JSON.stringify(loaded.diagnostics.slice(0, 2)));
  return buildPlan(loaded.desired, { clients: [10042], rules: [], ipEntries: [] });
}

/** Every change newly blocks requests on the three hostile paths. */
function hostile(rules: number): PlanDocument {
  const plan = planOf(rules);
  const impact: Impact = {
    effect: 'newly_blocked', evaluable: true, requests: 3, ips: 1, pathCount: 3, sampleRequestIds: ['r\x1b[2J'],
    paths: [{ path: CONTROLS, requests: 1 }, { path: FENCE, requests: 1 }, { path: HUGE, requests: 1 }],
  };
  return encodePlan({
    ...plan, impacts: new Map<Change, Impact>(plan.changes.map((change) => [change, impact])),
    impact: { windowSeconds: 604_800, hitsRead: 3, listings: 1, complete: false, reason: 'listing failed: \x1b[31mfake\x1b[0m\n# heading', notEvaluable: 0 },
  });
}

/** Each line of markdown outside code, after every fence opened has closed (CommonMark: a fence closes with at least as many backticks). */
function outsideCode(markdown: string): { lines: string[]; open: boolean } {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const run = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined && run) fence = run;
    else if (fence !== undefined && run && run.length >= fence.length && line.trim() === run) fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return { lines, open: fence !== undefined };
}

describe('hostile recorded paths', () => {
  it('reach the text plan with every control character shown escaped, and bounded', () => {
    const text = renderText(hostile(1));
    // eslint-disable-next-line no-control-regex -- the raw controls are what must not be there
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(text).toContain('/x\\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\r\\nPlan: 0 to create');
    expect(text).toContain('listing failed: \\x1b[31mfake\\x1b[0m\\n# heading');
    expect(text.split('\n').filter((line) => line.startsWith('Plan:'))).toEqual(['Plan: 1 to create, 0 to update, 0 to delete, 0 unchanged (1 API call).']);
    expect(text.length).toBeLessThan(2_000);
  });

  it('reach the comment as inert text: no fence closed early, no heading, no link, nothing past its bound', () => {
    const comment = renderMarkdown(hostile(1));
    const { lines, open } = outsideCode(comment);
    expect(open).toBe(false);
    expect(lines.filter((line) => /^#{1,6} /.test(line)).map((line) => line.replace(/ .*/, ''))).toEqual(['###', '####', '####']);
    expect(lines.some((line) => line.includes('Approved by security') && !line.includes('\\# Approved'))).toBe(false);
    expect(lines.some((line) => /(^|[^\\])\[click to approve\]/.test(line))).toBe(false);
    // eslint-disable-next-line no-control-regex -- the raw controls are what must not be there
    expect(comment).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(comment.length).toBeLessThan(4_000);
    expect(comment).toContain('<sub>checksum `');
  });

  it('a comment cut to its limit keeps the summary, the change list and the checksum line, and says what it cut', () => {
    const plan = hostile(300);
    const comment = renderMarkdown(plan, { maxChars: MAX_COMMENT_CHARS });
    expect(comment.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(outsideCode(comment).open).toBe(false);
    expect(comment).toContain('**Plan: 300 to create, 0 to update, 0 to delete, 0 unchanged (300 API calls).**');
    expect(comment).toContain('… and 250 more rows, in the job summary and the saved plan.');
    expect(comment).toMatch(/\*\*Cut to fit the comment limit of 65536 characters\*\*: \d+ of 300 changes are shown in full, \d+ as one line each\. /);
    expect(comment).toContain('- `+` rule patch-299 (vpatch) · client 10042, application 7 (policies/shop.yaml:304)\n');
    expect(comment.endsWith(`<sub>checksum \`${plan.checksum.slice(0, 12)}\` · policies \`${plan.desired_digest.slice(0, 12)}\` · live \`${plan.live_digest.slice(0, 12)}\`</sub>\n`)).toBe(true);
  });

  it('a tight limit cuts the impact table by rows, and says so', () => {
    const comment = renderMarkdown(hostile(300), { maxChars: 20_000 });
    expect(comment.length).toBeLessThanOrEqual(20_000);
    expect(outsideCode(comment).open).toBe(false);
    expect(comment).toMatch(/\*\*Cut to fit the comment limit of 20000 characters\*\*: the impact table shows \d+ of its 300 rows; /);
    expect(comment).toContain('<sub>checksum `');
  });
});
