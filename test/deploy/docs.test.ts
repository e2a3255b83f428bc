/**
 * The operator docs stay complete: every error code the code raises is in
 * docs/errors.md, every daemon metric in docs/operations.md, every alert has
 * its runbook section, and the manifests the docs name exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}
const all = sources('src').map((file) => ({ file, text: read(file) }));

describe('docs/errors.md', () => {
  const doc = read('docs/errors.md');

  it('lists every error class code', () => {
    const codes = all.flatMap(({ text }) => [...text.matchAll(/readonly code = '([a-z_]+)'/g)].map((m) => m[1] as string));
    expect(codes.length).toBeGreaterThan(15);
    for (const code of codes) expect(doc, code).toContain(`| \`${code}\` |`);
  });

  it('lists every policy diagnostic code', () => {
    const policy = all.filter(({ file }) => file.startsWith('src/policy/'));
    const codes = new Set<string>();
    for (const { text } of policy) {
      for (const m of text.matchAll(/\.(?:error|warning)\('([a-z-]+)'/g)) codes.add(m[1] as string);
      for (const m of text.matchAll(/code: '([a-z-]+)'/g)) codes.add(m[1] as string);
    }
    expect(codes.size).toBeGreaterThan(20);
    for (const code of codes) expect(doc, code).toContain(`| \`${code}\` |`);
  });
});

describe('docs/operations.md', () => {
  const doc = read('docs/operations.md');

  it('lists every daemon metric', () => {
    const metrics = [...read('src/daemon/metrics.ts').matchAll(/name: '(rampart_[a-z_]+)'/g)].map((m) => m[1] as string);
    expect(metrics.length).toBeGreaterThanOrEqual(5);
    for (const metric of metrics) expect(doc, metric).toContain(`\`${metric}`);
  });

  it('documents every alert, and each runbook link has its section', () => {
    const rules = (parse(read('deploy/prometheus/rampart-alerts.yaml')).spec.groups as { rules: { alert: string; annotations: { runbook?: string } }[] }[])
      .flatMap((g) => g.rules);
    const anchors = new Set([...doc.matchAll(/^#{2,4} (.+)$/gm)].map((m) => (m[1] as string).toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    for (const rule of rules) {
      expect(doc, rule.alert).toContain(`\`${rule.alert}\``);
      const anchor = rule.annotations.runbook?.split('#')[1];
      expect(anchor && anchors.has(anchor), `${rule.alert}: ${rule.annotations.runbook}`).toBe(true);
    }
  });

  it('names paths that exist', () => {
    for (const path of ['deploy/kubernetes/git-sync', 'deploy/kubernetes/configmap', 'deploy/prometheus/rampart-alerts.yaml', 'docs/operations-daemon.md', 'docs/ci/rampart-plan.yml']) {
      expect(existsSync(join(ROOT, path)), path).toBe(true);
    }
  });
});
