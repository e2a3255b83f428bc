/**
 * One name everywhere: the repository in package.json is the project's home,
 * and the image in the manifests, the action in the docs, the Dockerfile's
 * source label and the schema's `$id` all follow from it. One runtime: Node.js
 * 22 and 24 LTS (20.19 still allowed while the development machines run it).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  name: string; version: string; homepage: string; bugs: string;
  repository: { url: string }; engines: { node: string };
};
const home = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\.git$/.exec(pkg.repository.url);
const [owner, repo] = [home?.[1] ?? '', home?.[2] ?? ''];
const image = `ghcr.io/${owner}/${repo}`;

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return files(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}
const docs = ['README.md', 'CHANGELOG.md', 'Dockerfile', 'action.yml', ...files('docs', /\.(md|ya?ml)$/), ...files('deploy', /\.ya?ml$/)];

describe('the project has one home', () => {
  it('package.json names it: repository, homepage, bugs', () => {
    expect(home, pkg.repository.url).not.toBeNull();
    expect(pkg.homepage).toBe(`https://github.com/${owner}/${repo}#readme`);
    expect(pkg.bugs).toBe(`https://github.com/${owner}/${repo}/issues`);
    expect(pkg.name).toBe('rampart');
  });

  it('every manifest runs that image at the package version, and each kustomization shows newName', () => {
    const images: string[] = [];
    for (const file of files('deploy/kubernetes', /\.ya?ml$/)) {
      for (const doc of parseAllDocuments(read(file))) {
        const spec = (doc.toJS() as { spec?: { template?: { spec?: { containers?: { name: string; image: string }[] } } } } | null)?.spec;
        for (const container of spec?.template?.spec?.containers ?? []) if (container.name === 'rampart') images.push(container.image);
      }
    }
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const used of images) expect(used).toBe(`${image}:${pkg.version}`);
    for (const file of files('deploy/kubernetes', /^kustomization\.yaml$/)) {
      const entries = (parseAllDocuments(read(file))[0]?.toJS() as { images: { name: string; newName?: string; newTag?: string }[] }).images;
      expect(entries, file).toEqual([{ name: image, newName: image, newTag: pkg.version }]);
      expect(read(file), file).toMatch(/newName: .*# e\.g\. /);
    }
  });

  it('the Dockerfile labels its source, and the schema $id lives there', () => {
    expect(read('Dockerfile')).toContain(`org.opencontainers.image.source="https://github.com/${owner}/${repo}"`);
    const schema = JSON.parse(read('schemas/policy.schema.json')) as { $id: string };
    expect(schema.$id).toBe(`https://raw.githubusercontent.com/${owner}/${repo}/main/schemas/policy.schema.json`);
  });

  it('no doc names another home: the action, the image and git installs all point at it', () => {
    for (const file of docs) {
      const text = read(file);
      for (const m of text.matchAll(/uses: ([\w.-]+\/[\w.-]+)@/g)) {
        if (!/^(actions|docker|github)\//.test(m[1] as string)) expect(m[1], file).toBe(`${owner}/${repo}`);
      }
      for (const m of text.matchAll(/ghcr\.io\/[\w./-]+/g)) expect(m[0], file).toBe(image);
      for (const m of text.matchAll(/github\.com\/([\w.-]+\/[\w.-]+?)(\.git|\/|#|\b)/g)) {
        if (/rampart/i.test(m[1] as string)) expect(m[1], file).toBe(`${owner}/${repo}`);
      }
      expect(text, file).not.toMatch(/rampart\.dev\b/);
      // Not on the npm registry yet: no doc may tell anyone to install it from there.
      expect(text, file).not.toMatch(/npm (install|i)\b[^\n]*[\s"']rampart@/);
    }
  });
});

describe('the runtime is a current Node.js LTS', () => {
  it('engines: the 22, 24 and 26 LTS lines, and still the 20.19 of the development machines', () => {
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.11.0 || >=24.0.0');
  });

  it('the action, the GitLab example and the image use Node.js 26, the active LTS', () => {
    expect(read('action.yml')).toMatch(/node-version: '26'/);
    expect(read('action.yml')).not.toMatch(/node-version: '?20/);
    const ci = read('docs/ci.md');
    expect(ci).toMatch(/image: node:26/);
    expect(ci).not.toMatch(/node:20|node-version: '20'/);
    expect(read('Dockerfile')).toMatch(/^ARG NODE_IMAGE=node:26-/m);
    for (const file of docs) {
      for (const m of read(file).matchAll(/node-version: '?(\d+)|image: node:(\d+)/g)) expect(m[1] ?? m[2], file).toBe('26');
    }
  });
});
