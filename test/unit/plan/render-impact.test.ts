/**
 * The impact as the outputs show it: a line under each change in the text
 * plan, "at least" when the evidence is incomplete, the markdown comment's
 * Impact table within the comment's limit at 1,000 changes, and a checksum
 * that leaves the impact out (the same plan with or without it).
 */
import { describe, expect, it } from 'vitest';
import { MAX_COMMENT_CHARS } from '../../../src/ci/pr-comment.js';
import type { Change } from '../../../src/model/change.js';
import { encodePlan, planChecksum } from '../../../src/plan/codec.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import type { Impact, ImpactSummary, Plan } from '../../../src/plan/model.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

function planOf(rules: number): Plan {
  const body = Array.from({ length: rules }, (_, i) => `  - { name: patch-${i}, type: vpatch, attack: sqli, point: [[get, q]], when: [{ url: shop.example.com/api/p${i} }] }\n`).join('');
  const loaded = loadPolicyTexts([{ file: 'policies/shop.yaml', text: `version: 1\nclient: 10042\napplication: 7\nrules:\n${body}` }]);
  if (!loaded.desired) throw new Error(JSON.stringify(loaded.diagnostics.slice(0, 2)));
  return buildPlan(loaded.desired, { clients: [10042], rules: [], ipEntries: [] });
}

function impactOf(i: number): Impact {
  const paths = Array.from({ length: 5 }, (_, p) => ({ path: `/api/a-rather-long-path-name-for-the-table/p${i}/${p}`, requests: 5 - p }));
  return {
    effect: 'newly_blocked', evaluable: true, requests: i, ips: i % 17, paths, pathCount: 5, sampleRequestIds: [`r${i}`], lowerBound: true,
    reason: 'at least: the service does not record clean traffic, which the rule also acts on',
  };
}

function withImpacts(plan: Plan, impact: Partial<ImpactSummary> = {}): Plan {
  const impacts = new Map<Change, Impact>(plan.changes.map((change, i) => [change, impactOf(i + 1)]));
  return { ...plan, impacts, impact: { windowSeconds: 7 * 86_400, hitsRead: 18_412, listings: 2, complete: true, notEvaluable: 0, ...impact } };
}

describe('the impact in the outputs', () => {
  it('is a line under each change of the text plan, and the plan ends with how much was read', () => {
    const text = renderText(encodePlan(withImpacts(planOf(2))));
    expect(text).toContain('        impact (7 d): would newly block at least 1 request from 1 IP on 5 paths (top: /api/a-rather-long-path-name-for-the-table/p1/0 5,');
    expect(text).toContain('Impact over 7 d: 18,412 hits read (2 listings).');
  });

  it('says "at least" and why when the evidence is incomplete, in the text and the comment', () => {
    const plan = encodePlan(withImpacts(planOf(1), { complete: false, reason: 'the hits listing failed for client 10042: 503' }));
    expect(renderText(plan)).toContain('Incomplete: the hits listing failed for client 10042: 503; the counts are at least what they say.');
    expect(renderMarkdown(plan)).toMatch(/Incomplete: the hits listing failed for client 10042: 503/);
    expect(renderMarkdown(plan)).toMatch(/\| ≥ 1 \|/);
  });

  it('never reads "within the limit" on an incomplete impact: it says the plan is unsafe', () => {
    const plan = encodePlan(withImpacts(planOf(1), { complete: false, reason: 'the hits listing failed for client 10042: 503', limit: 100, overLimit: 0 }));
    for (const out of [renderText(plan), renderMarkdown(plan)]) {
      expect(out).toMatch(/Unsafe: an incomplete impact cannot show a plan within the limit of 100 requests newly blocked or no longer blocked per change; apply refuses it without --force\./);
      expect(out).not.toMatch(/Within the limit/);
    }
  });

  it('marks an impact a reader found not verified, on each line and before the closing line', () => {
    const saved = encodePlan(withImpacts(planOf(1)));
    const plan = { ...saved, impact: { ...saved.impact!, unverified: 'it does not match its checksum: it was changed after the plan was made' } };
    const text = renderText(plan);
    expect(text).toContain('impact (7 d, not verified): would newly block');
    expect(text).toContain('Impact not verified: it does not match its checksum: it was changed after the plan was made; its figures are not evidence of what the service saw. Impact over 7 d');
    expect(renderMarkdown(plan)).toMatch(/#### Impact \(7 d\)\n\n> \[!CAUTION\]\n> Impact not verified: it does not match its checksum/);
  });

  it('keeps the comment of 1,000 changes under its limit, the table first with the largest effects', () => {
    const comment = renderMarkdown(encodePlan(withImpacts(planOf(1_000))), { maxChars: MAX_COMMENT_CHARS });
    expect(comment.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    const table = comment.slice(comment.indexOf('#### Impact (7 d)'), comment.indexOf('Impact over 7 d'));
    const rows = table.split('\n').filter((line) => line.startsWith('| ~') || line.startsWith('| +'));
    expect(rows).toHaveLength(50);
    expect(rows[0]).toContain('| ≥ 1000 |');
    expect(table).toContain('… and 950 more rows');
    expect(comment).toContain('Impact over 7 d: 18,412 hits read');
  });

  it('is left out of the checksum: the same plan with or without it has one checksum', () => {
    const plan = planOf(3);
    const bare = encodePlan(plan);
    const evidenced = encodePlan(withImpacts(plan));
    expect(evidenced.changes[0]?.impact).toMatchObject({ requests: 1 });
    expect(evidenced.checksum).toBe(bare.checksum);
    expect(planChecksum(JSON.parse(JSON.stringify(evidenced.changes)))).toBe(bare.checksum);
  });
});
