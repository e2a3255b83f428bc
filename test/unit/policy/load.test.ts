/** The loader on a real file system: discovery, symlinks, limits, digest. */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicies, loadPolicyTexts, parsePolicyText } from '../../../src/policy/index.js';

const policy = (app: number, ip = `192.0.2.${app}`) =>
  `version: 1\nclient: 10042\napplication: ${app}\nip_lists:\n  deny:\n    - ips: [${ip}]\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-load-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

describe('loadPolicies', () => {
  it('reads *.yaml and *.yml recursively, skipping dot names and other extensions', async () => {
    await put('a.yaml', policy(1));
    await put('sub/deeper/b.yml', policy(2));
    await put('.hidden.yaml', 'not: [valid');
    await put('.git/c.yaml', 'not: [valid');
    await put('sub/.cache/d.yaml', 'not: [valid');
    await put('README.md', '# hi');
    const result = await loadPolicies(dir);
    expect(result.files.map((f) => relative(relative(process.cwd(), dir), f))).toEqual(['a.yaml', 'sub/deeper/b.yml']);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.ipEntries.map((e) => e.value)).toEqual(['192.0.2.1/32', '192.0.2.2/32']);
    expect(result.exists).toBe(true);
  });

  it('shows paths relative to the working directory', async () => {
    await put('shop.yaml', 'version: 1\nclient: 0\napplication: 7\n');
    const result = await loadPolicies(dir);
    const shown = relative(process.cwd(), join(dir, 'shop.yaml'));
    expect(result.files).toEqual([shown]);
    expect(result.diagnostics[0]).toMatchObject({ file: shown, line: 2, col: 9, code: 'invalid-id' });
  });

  it('reports a missing directory and an empty one as having no files, never as an error state', async () => {
    const missing = await loadPolicies(join(dir, 'nope'));
    expect(missing).toMatchObject({ exists: false, files: [], diagnostics: [] });
    await mkdir(join(dir, 'empty'));
    const empty = await loadPolicies(join(dir, 'empty'));
    expect(empty).toMatchObject({ exists: true, files: [], diagnostics: [] });
    expect(empty.desired).toEqual({ clients: [], rules: [], ipEntries: [] });
  });

  it('follows a symlinked directory inside the root once, does not loop on a symlink cycle, and refuses a link out unread', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'rampart-outside-'));
    try {
      await writeFile(join(outside, 'linked.yaml'), policy(3));
      await writeFile(join(outside, 'token'), 'a-secret-token-value');
      await put('a.yaml', policy(1));
      await put('real/linked.yaml', policy(2));
      await symlink(join(dir, 'real'), join(dir, 'shared'));
      await symlink(outside, join(dir, 'elsewhere'));
      await symlink(join(outside, 'token'), join(dir, 'token.yaml'));
      await mkdir(join(dir, 'loop'));
      await symlink(dir, join(dir, 'loop', 'back'));
      await symlink(join(dir, 'loop'), join(dir, 'loop', 'self'));
      const result = await loadPolicies(dir);
      expect(result.files.map((f) => f.split('/').slice(-2).join('/'))).toEqual([`${dir.split('/').pop()}/a.yaml`, 'real/linked.yaml']);
      expect(result.diagnostics.map((d) => [d.file.split('/').pop(), d.code, d.message])).toEqual([
        ['elsewhere', 'read-error', 'cannot read: a link to something outside the policy directory: not read (policy files and folders must lie under it)'],
        ['token.yaml', 'read-error', 'cannot read: a link to something outside the policy directory: not read (policy files and folders must lie under it)'],
      ]);
      expect(JSON.stringify(result)).not.toContain('a-secret-token-value');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('resolves a symlinked root once and reads a ConfigMap-style snapshot', async () => {
    await put('..2024_01_01/shop.yaml', policy(1));
    await symlink('..2024_01_01', join(dir, '..data'));
    await symlink('..data/shop.yaml', join(dir, 'shop.yaml'));
    const viaRoot = await loadPolicies(dir);
    expect(viaRoot.files).toHaveLength(1);
    expect(viaRoot.desired?.ipEntries).toHaveLength(1);

    const link = join(dir, '..data');
    const result = await loadPolicies(link);
    expect(result.root).toBe(join(dir, '..2024_01_01'));
    expect(result.files).toEqual([relative(process.cwd(), join(link, 'shop.yaml'))]);
    // The digest depends on content and root-relative paths, not on the snapshot's name.
    await put('..2024_01_02/shop.yaml', policy(1));
    await rm(link);
    await symlink('..2024_01_02', join(dir, '..tmp'));
    await rename(join(dir, '..tmp'), link);
    const swapped = await loadPolicies(link);
    expect(swapped.root).toBe(join(dir, '..2024_01_02'));
    expect(swapped.digest).toBe(result.digest);
  });

  it('digest changes with content and with file names, and is stable otherwise', async () => {
    await put('a.yaml', policy(1));
    const first = await loadPolicies(dir);
    expect((await loadPolicies(dir)).digest).toBe(first.digest);
    expect(first.digest).toMatch(/^[0-9a-f]{64}$/);
    await put('a.yaml', policy(2));
    const changed = await loadPolicies(dir);
    expect(changed.digest).not.toBe(first.digest);
    await rename(join(dir, 'a.yaml'), join(dir, 'b.yaml'));
    expect((await loadPolicies(dir)).digest).not.toBe(changed.digest);
  });

  it('refuses a file over the size limit without reading it', async () => {
    await put('big.yaml', policy(1) + `description: "${'x'.repeat(2000)}"\n`);
    const result = await loadPolicies(dir, { maxFileBytes: 1000 });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
    expect(result.desired).toBeUndefined();
  });

  it('accepts a single file as the root', async () => {
    await put('one.yaml', policy(1));
    const result = await loadPolicies(join(dir, 'one.yaml'));
    expect(result.files).toHaveLength(1);
    expect(result.desired?.ipEntries).toHaveLength(1);
  });
});

describe('YAML safety', () => {
  it('limits alias expansion', () => {
    const text = policy(1) + 'description: &d x\n' + 'x: [' + Array(5).fill('*d').join(', ') + ']\n';
    const parsed = parsePolicyText({ file: 'a.yaml', text }, { maxAliasCount: 3 });
    expect(parsed.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml-alias-limit', 8]]);
    expect(parsePolicyText({ file: 'a.yaml', text }).diagnostics).toEqual([]);
  });

  it('reports an error inside an aliased value where the alias uses it, not once more at the anchor', () => {
    const text = [
      'version: 1', 'client: 10042', 'application: 7', 'rules:',
      '  - { name: a, type: vpatch, attack: any, point: &pt [[get, r], [oops]] }',
      '  - name: b',
      '    type: vpatch',
      '    attack: any',
      '    point: *pt', '',
    ].join('\n');
    const { diagnostics } = loadPolicyTexts([{ file: 'a.yaml', text }]);
    expect(diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['unknown-point', 5, 66], ['unknown-point', 9, 12]]);
  });

  it('reports duplicate keys at the second occurrence', () => {
    const { diagnostics } = loadPolicyTexts([{ file: 'a.yaml', text: policy(1) + 'ip_lists: {}\n' }]);
    expect(diagnostics).toMatchObject([{ code: 'duplicate-key', line: 7, col: 1 }]);
  });

  it('keeps __proto__ and constructor keys harmless', () => {
    const text = policy(1).replace('ip_lists:', '__proto__: { polluted: true }\nconstructor: { prototype: { polluted: true } }\nip_lists:');
    const { diagnostics } = loadPolicyTexts([{ file: 'a.yaml', text }]);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['unknown-key', 4], ['unknown-key', 5]]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('ignores merge keys (YAML 1.2) and rejects complex keys', () => {
    const merged = loadPolicyTexts([{ file: 'a.yaml', text: policy(1) + '<<: { mode: block }\n' }]);
    expect(merged.diagnostics.map((d) => d.code)).toEqual(['unknown-key']);
    const complex = loadPolicyTexts([{ file: 'a.yaml', text: policy(1) + '? [a, b]\n: c\n' }]);
    expect(complex.diagnostics.map((d) => d.code)).toEqual(['yaml-syntax']);
  });
});
