/**
 * The operator docs stay complete: every error code the code raises is in
 * docs/errors.md, every daemon metric in docs/operations.md, every alert has
 * its runbook section, and the manifests the docs name exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ACCESS_CHECKS } from '../../src/commands/doctor-checks.js';
import { loadPolicyTexts } from '../../src/policy/index.js';

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
    const anchorsOf = (text: string) => new Set([...text.matchAll(/^#{2,4} (.+)$/gm)].map((m) => (m[1] as string).toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    for (const rule of rules) {
      expect(doc, rule.alert).toContain(`\`${rule.alert}\``);
      // The runbook may be a section of this page or of the audit page it links to.
      const [file, anchor] = (rule.annotations.runbook ?? '').split('#') as [string, string | undefined];
      expect(file === 'docs/operations.md' || file === 'docs/operations-audit.md', `${rule.alert}: ${rule.annotations.runbook}`).toBe(true);
      expect(anchor !== undefined && anchorsOf(read(file)).has(anchor), `${rule.alert}: ${rule.annotations.runbook}`).toBe(true);
    }
  });

  it('stays a deploy guide: under 400 lines, one table of current figures', () => {
    expect(doc.split('\n').length).toBeLessThan(400);
  });

  it('names paths that exist', () => {
    for (const path of ['deploy/kubernetes/git-sync', 'deploy/kubernetes/configmap', 'deploy/prometheus/rampart-alerts.yaml', 'docs/operations-daemon.md', 'docs/ci/rampart-plan.yml']) {
      expect(existsSync(join(ROOT, path)), path).toBe(true);
    }
  });
});

describe('pointing it at a real account', () => {
  /** A section: from its heading to the next heading of the same or a higher level. */
  const section = (page: string, heading: string) => {
    const text = read(page);
    const start = text.indexOf(`${heading}\n`);
    expect(start, `${page}: ${heading}`).toBeGreaterThanOrEqual(0);
    const level = /^#+/.exec(heading)![0];
    const next = text.slice(start + heading.length).search(new RegExp(`^#{1,${level.length}} `, 'm'));
    return next < 0 ? text.slice(start) : text.slice(start, start + heading.length + next);
  };
  const sections = { 'README.md': '### Pointing it at your account', 'docs/operations.md': '## Pointing it at your account' };

  for (const [page, heading] of Object.entries(sections)) {
    it(`${page} says where the address is, what each command needs of the token, and what a missing right looks like`, () => {
      const text = section(page, heading);
      for (const words of ['US cloud', 'EU cloud', 'API base address', 'Settings → API tokens', 'X-ServiceApi-Token', 'extended admin', '[api_auth]', 'answered 403', 'rampart doctor']) {
        expect(text, words).toContain(words);
      }
      for (const command of ['plan', 'export', 'apply', 'run', 'adopt', 'tune', 'plan --impact', 'disable_stamp']) expect(text, command).toContain(`\`${command}`);
    });
  }

  it('docs/operations.md names the route of every read `rampart doctor` tries', () => {
    const text = section('docs/operations.md', sections['docs/operations.md']);
    for (const check of ACCESS_CHECKS) expect(text, check.read).toContain(`\`${check.route}\``);
  });
});

describe('plans the docs save on a workstation', () => {
  it("go where the repository's .gitignore keeps them out of git", async () => {
    const { default: ignore } = await import('ignore');
    const ignored = ignore().add(read('.gitignore'));
    // Command lines of the shell blocks, not the tables' synopses (`--out FILE`).
    const outs = [...read('README.md').matchAll(/^(?:npx )?rampart plan [^\n]*--out (\S+)/gm)].map((m) => m[1] as string);
    expect(outs.length).toBeGreaterThan(0);
    for (const out of outs) expect(ignored.ignores(out), out).toBe(true);
  });
});

describe("the README's policy examples", () => {
  it('validate without an error or a warning, as a reader who copies one runs `rampart validate` on it', () => {
    const examples = [...read('README.md').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string).filter((text) => /^version: 1$/m.test(text));
    expect(examples.length).toBeGreaterThan(0);
    examples.forEach((text, i) => {
      const result = loadPolicyTexts([{ file: `policies/example-${i}.yaml`, text }], { now: new Date('2026-12-01T00:00:00Z') });
      expect(result.diagnostics, text).toEqual([]);
    });
  });
});

describe('docs/performance.md', () => {
  it('holds the current figures and how to reproduce them, in under 400 lines', () => {
    const doc = read('docs/performance.md');
    expect(doc.split('\n').length).toBeLessThan(400);
    expect(doc).toContain('## Current figures');
    expect(doc).toContain('## Reproduce');
  });
});

describe('links in the docs', () => {
  const pages = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const anchorsOf = (text: string) => new Set([...text.matchAll(/^#{1,6} (.+)$/gm)]
    .map((m) => (m[1] as string).trim().toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-')));

  it('never leave the repository, and each one resolves to a file (and heading) in it', () => {
    const problems: string[] = [];
    for (const page of pages) {
      const text = read(page).replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1] as string;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
          problems.push(`${page}: ${target} leaves the repository`);
          continue;
        }
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path ? join(dirname(join(ROOT, page)), path) : join(ROOT, page);
        if (!file.startsWith(ROOT + '/') || !existsSync(file)) {
          problems.push(`${page}: ${target} is not a file of the repository`);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) problems.push(`${page}: ${target} names no heading`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('name no path outside the repository, such as a sibling folder of notes', () => {
    for (const page of pages) expect(read(page), page).not.toMatch(/\.\.\/shared|\/work\//);
  });
});

describe('the contract lives in the repository', () => {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)].map(read).join('\n');

  it('the README names every command', () => {
    const readme = read('README.md');
    const commands = new Set(all.flatMap(({ text }) => [...text.matchAll(/\.command\('([a-z-]+)/g)].map((m) => m[1] as string)));
    expect(commands.size).toBeGreaterThanOrEqual(6);
    for (const command of commands) expect(readme, command).toMatch(new RegExp(`rampart (\\w+ )?${command}\\b`));
  });

  it('the docs name every RAMPART_ variable the code reads (RAMPART_RETRY_BASE_MS is for tests and drills)', () => {
    const variables = new Set(all.flatMap(({ text }) => [...text.matchAll(/RAMPART_[A-Z_]+/g)].map((m) => m[0])));
    variables.delete('RAMPART_RETRY_BASE_MS');
    expect(variables.size).toBeGreaterThan(10);
    for (const variable of variables) expect(docs, variable).toContain(`\`${variable}`);
  });
});
