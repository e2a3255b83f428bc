import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/plan.js';
import { escapeData, escapeProperty, renderGithub } from '../../../src/plan/render/github.js';
import { renderJson } from '../../../src/plan/render/json.js';
import { escapeMarkdown, MARKDOWN_MARKER, renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import { desiredRule, desiredState, liveRule, liveState, ruleFields } from './builders.js';
import { everyChange } from './scenario.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/plan');

/** Compares with test/fixtures/plan/NAME; `UPDATE_GOLDEN=1` rewrites it. */
function golden(name: string, actual: string): void {
  const file = join(FIXTURES, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} missing: run with UPDATE_GOLDEN=1`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const plan = buildPlan(everyChange().desired, everyChange().live);
const rule = ruleFields('vpatch');
const empty = buildPlan(desiredState([desiredRule(rule)]), liveState([liveRule(rule, 1)]));

describe('golden renderings of a plan with every change type', () => {
  it('json', () => golden('every-change.json', renderJson(plan)));
  it('text', () => golden('every-change.txt', renderText(plan)));
  it('text in colour', () => golden('every-change.color.txt', renderText(plan, { color: true })));
  it('markdown', () => golden('every-change.md', renderMarkdown(plan)));
  it('github annotations', () => golden('every-change.github.txt', renderGithub(plan).annotations));
  it('github summary', () => golden('every-change.github.md', renderGithub(plan).summary));
  it('text without changes', () => golden('no-changes.txt', renderText(empty)));
  it('markdown without changes', () => golden('no-changes.md', renderMarkdown(empty)));
});

describe('text', () => {
  it('ends with the summary line', () => {
    const lines = renderText(plan).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Plan: 4 to create, 1 to update, 5 to delete, 4 to replace, 4 unchanged.');
    expect(renderText(empty).trimEnd().split('\n').at(-1)).toBe('No changes. The account matches the policies.');
  });

  it('colours only when asked', () => {
    expect(renderText(plan)).not.toContain('\x1b[');
    const coloured = renderText(plan, { color: true });
    expect(coloured).toContain('\x1b[33m-/+ rule block-legacy-admin');
    expect(coloured).toContain('\x1b[32m+ deny 198.51.100.7/32');
    expect(coloured).toContain('\x1b[31m- rule #552');
    expect(coloured).toContain('\x1b[33m~ rule curltool-scanner');
  });

  it('omits the update and replace counts when there are none', () => {
    const p = buildPlan(desiredState([desiredRule(rule, 'x', 3)]), liveState());
    expect(renderText(p).trimEnd().split('\n').at(-1)).toBe('Plan: 1 to create, 0 to delete, 0 unchanged.');
  });
});

describe('markdown', () => {
  it('starts with the hidden marker, then the summary table, deletions called out', () => {
    const md = renderMarkdown(plan);
    expect(md.startsWith(`${MARKDOWN_MARKER}\n`)).toBe(true);
    expect(md.indexOf('| Create | 4 |')).toBeLessThan(md.indexOf('<details>'));
    expect(md).toContain('| Update | 1 |');
    expect(md).toContain('> [!WARNING]\n> This plan **deletes 5 objects**');
  });

  it('escapes user text', () => {
    expect(escapeMarkdown('a|b <x> `c` *d*\nnext')).toBe('a\\|b &lt;x&gt; \\`c\\` \\*d\\* next');
    expect(renderMarkdown(plan)).toContain(String.raw`reason "office &lt;HQ&gt; \| \\"main\\", 50%"`);
  });
});

describe('github', () => {
  it('escapes data and properties per the workflow-command rules', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a: b, c%')).toBe('a%3A b%2C c%25');
  });

  it('annotates each policy line that causes a create', () => {
    const { annotations } = renderGithub(plan);
    const lines = annotations.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('::notice '))).toHaveLength(7);
    expect(lines).toContain('::notice file=policies/shop.yaml,line=14,col=5,title=Rampart%3A update::rule curltool-scanner (regex) will be updated in place for client 10042: comment');
    expect(lines).toContain(
      '::notice file=policies/acme%3A eu%2C all.yaml,line=5,col=5,title=Rampart%3A create::ip_lists.gray[0]: PUB, VPN will be created for client 20001',
    );
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(1);
  });

  it('caps the annotations', () => {
    const { annotations } = renderGithub(plan, { maxAnnotations: 2 });
    expect(annotations.trimEnd().split('\n')).toHaveLength(3);
    expect(annotations).toContain('::notice::6 more annotations left out; see the step summary');
  });

  it('writes the step summary without the comment marker', () => {
    const { summary } = renderGithub(plan);
    expect(summary).not.toContain(MARKDOWN_MARKER);
    expect(summary).toContain('| Create | 4 |');
  });
});
