import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, renderGithub } from '../../../src/plan/render/github.js';
import { renderJson } from '../../../src/plan/render/json.js';
import { escapeMarkdown, MARKDOWN_MARKER, renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import { desiredIp, desiredIps, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields } from './builders.js';
import { golden } from './golden.js';
import { everyChange } from './scenario.js';
import { planDocument } from '../../helpers/plan-document.js';

const plan = planDocument(everyChange().desired, everyChange().live);
const rule = ruleFields('vpatch');
const empty = planDocument(desiredState([desiredRule(rule)]), liveState([liveRule(rule, 1)]));

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
  it('ends with the summary line, objects and calls counted apart', () => {
    const lines = renderText(plan).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Plan: 4 to create, 1 to update, 4 to replace, 5 to delete, 4 unchanged (10 API calls).');
    expect(renderText(empty).trimEnd().split('\n').at(-1)).toBe('No changes. The account matches the policies.');
  });

  it('colours only when asked', () => {
    expect(renderText(plan)).not.toContain('\x1b[');
    const coloured = renderText(plan, { color: true });
    expect(coloured).toContain('\x1b[33m-/+ rule block-legacy-admin');
    expect(coloured).toContain('\x1b[32m+ deny list, ip_range (2 values)');
    expect(coloured).toContain('\x1b[31m- rule old-scanner #552');
    expect(coloured).toContain('\x1b[33m~ rule curltool-scanner');
    expect(coloured).toContain('\x1b[33m~ point:  [[header, HOST-old]] → [[header, HOST]]');
  });

  it('always shows create, update and delete, replace only when the plan has some', () => {
    const p = planDocument(desiredState([desiredRule(rule, 'x', 3)]), liveState());
    expect(renderText(p).trimEnd().split('\n').at(-1)).toBe('Plan: 1 to create, 0 to update, 0 to delete, 0 unchanged (1 API call).');
  });

  it('shows every attribute of a change, old → new for what an update or a replacement changes', () => {
    const text = renderText(plan);
    expect(text).toContain('~ comment:      (none) → "flags a known scanner"');
    expect(text).toContain('          regex:        ".*curltool.*"');
    // The replaced IP entry's old reason.
    expect(text).toContain(String.raw`~ reason:  "office" → "office <HQ> | \"main\", 50%"`);
    // A delete is named by the mark's name, falls back to its id and content when the mark has none.
    expect(text).toMatch(/- rule old-scanner #552 \(regex\) {2}not-declared\n {10}when: .*\n {10}point: .*\n {10}regex: +"\.\*curltool-old\.\*"/);
    expect(text).toContain('- rule #554 (mode)  duplicate\n          when: [path, 0] equal "admin"\n          mode: block');
  });

  it('groups IP values per list and application: a hundred addresses are one block', () => {
    const values = Array.from({ length: 100 }, (_, i) => `10.0.${i}.0/24`);
    const p = planDocument(desiredState([], desiredIps(values, { ruleType: 'ip_range', reason: 'bots' }, 12)), liveState());
    const text = renderText(p);
    expect(text.match(/^ {4}\+ /gm)).toHaveLength(1);
    expect(text).toContain('+ deny list, ip_range (100 values)  (policies/shop.yaml:12)');
    for (const v of values) expect(text).toContain(v);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(110);
  });
});

describe('markdown', () => {
  it('starts with the marker, the summary, then every deletion named outside any fold', () => {
    const md = renderMarkdown(plan);
    expect(md.startsWith(`${MARKDOWN_MARKER}\n### Rampart plan: 4 to create, 1 to update, 4 to replace, 5 to delete, 4 unchanged\n`)).toBe(true);
    const caution = md.indexOf('> [!CAUTION]\n> **This plan deletes 5 objects** from the account:');
    expect(caution).toBeGreaterThan(0);
    expect(md.indexOf('> - **rule old-scanner \\#552 (regex)** · client 10042, application 7 · not-declared')).toBeGreaterThan(caution);
    expect(md).toContain('> - **deny list, country (1 value): CN** · client 10042, application 7 · not-declared; object \\#991; after moving out KP, RU');
    // Nothing about a change is folded: only notes are.
    expect(md.indexOf('<details>')).toBeGreaterThan(md.lastIndexOf('```diff'));
  });

  it('puts the commit, run, API and time in the header', () => {
    const md = renderMarkdown(plan, {
      context: { commit: 'a'.repeat(40), runUrl: 'https://ci.example/runs/1', apiUrl: 'https://api.example', time: '2026-11-23T18:40:12.345Z' },
    });
    expect(md.split('\n')[3]).toBe('Commit `aaaaaaaaaaaa` · [CI run](https://ci.example/runs/1) · API `https://api.example` · 2026-11-23 18:40:12 UTC <!-- rampart-run -->');
  });

  it('escapes user text', () => {
    expect(escapeMarkdown('a|b <x> `c` *d*\nnext')).toBe('a\\|b &lt;x&gt; \\`c\\` \\*d\\* next');
  });
});

describe('github', () => {
  it('escapes data and properties per the workflow-command rules', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a: b, c%')).toBe('a%3A b%2C c%25');
  });

  it('annotates each change on its policy line, and each delete on the run', () => {
    const { annotations } = renderGithub(plan);
    const lines = annotations.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('::notice '))).toHaveLength(6);
    expect(lines).toContain('::notice file=policies/shop.yaml,line=14,col=5,title=Rampart%3A update::~ rule curltool-scanner #551 (regex) (client 10042): comment: (none) → "flags a known scanner"');
    expect(lines).toContain('::warning title=Rampart%3A delete::- rule old-scanner #552 (regex) (client 10042): not-declared');
    expect(lines.filter((l) => l.startsWith('::warning title=Rampart%3A delete::'))).toHaveLength(5);
  });

  it('maps paths to the repository root when the policies live in a subdirectory', () => {
    const { annotations } = renderGithub(plan, { path: (file) => `infra/waf/${file}` });
    expect(annotations).toContain('::notice file=infra/waf/policies/shop.yaml,line=8,col=5,title=Rampart%3A replace::');
    expect(annotations).toContain('::warning file=infra/waf/policies/shop.yaml,line=39,title=Rampart::');
  });

  it('caps the annotations, the undeclared objects and the deletes first', () => {
    const { annotations } = renderGithub(plan, { maxAnnotations: 2 });
    const lines = annotations.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('title=Rampart%3A not declared here::3 objects owned by rampart');
    expect(lines[1]).toContain('title=Rampart%3A delete');
    expect(annotations).toContain('::notice::11 more annotations left out; see the step summary');
  });

  it('writes the step summary without the comment marker', () => {
    const { summary } = renderGithub(plan);
    expect(summary).not.toContain(MARKDOWN_MARKER);
    expect(summary).toContain('**Plan: 4 to create');
  });
});

describe('adoptions (--adopt)', () => {
  // An unmanaged rule as declared, a one-per-scope rule held with other values, an IP value with another reason, a value in another list.
  const vpatch = { ...ruleFields('vpatch'), comment: 'by hand' };
  const desired = desiredState(
    [desiredRule(vpatch, 'admin', 3), desiredRule(ruleFields('mode'), 'mode', 4)],
    [desiredIp('10.0.0.0/8', { reason: 'new' }, 9), desiredIp('192.0.2.0/24', { list: 'black' }, 10)],
  );
  const live = liveState(
    [liveRule(vpatch, 900, null), liveRule(ruleFields('mode', 7, 'x'), 77, null)],
    [...liveObject(9, ['10.0.0.0/8'], { reason: 'old' }, null), ...liveObject(10, ['192.0.2.0/24'], { list: 'white' }, null)],
  );
  const adopted = planDocument(desired, live, { adopt: true });

  it('render as @ with every attribute and old → new for what the adoption changes', () => {
    const text = renderText(adopted);
    expect(text).toContain('@ rule admin #900 (vpatch)  owner mark added  (policies/shop.yaml:3)');
    expect(text).toContain('~ mode: monitoring → block');
    expect(text).toContain('@ deny list, ip_range (1 value)  owner mark added, taken from unmanaged #9  (policies/shop.yaml:9)');
    expect(text).toContain('~ reason:  "old" → "new"');
    expect(text).toContain('+ deny list, ip_range (1 value)  then deletes #10, which holds the values elsewhere');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 1 to create, 0 to update, 1 to delete, 3 to adopt, 0 unchanged (5 API calls).');
    golden('adopt.txt', text);
    golden('adopt.md', renderMarkdown(adopted));
    golden('adopt.github.txt', renderGithub(adopted).annotations);
  });
});
