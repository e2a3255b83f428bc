/**
 * YAML texts on which two readers of the same file may disagree: every YAML
 * file of the repository, the generated bench policies, every rule kind's
 * examples, and spellings chosen to tell YAML readers apart. The clean path's
 * tests (clean-yaml.test.ts, clean-positions.test.ts) compare readers on it.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { policyText } from '../../bench/validate.js';
import type { Path } from '../../src/policy/source-map.js';
import { RULE_KINDS } from '../../src/rules/registry.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const header = 'version: 1\nclient: 10042\napplication: 7\n';

/** Scalars, layouts and markers on which YAML readers are known to differ. */
const SPELLINGS = [
  'a: 0o17\nb: 0x1F\nc: +5\nd: -0\ne: 1e3\nf: .5\ng: .inf\nh: -.Inf\ni: .NaN\nj: 1_000\nk: 0b11\nl: 012\nm: 1.0\nn: 1.\no: 0.1e-2\n',
  'a: yes\nb: no\nc: on\nd: off\ne: True\nf: TRUE\ng: tRUE\nh: y\ni: n\n',
  'a: ~\nb: Null\nc:\nd: NULL\ne: nULL\nf: ""\ng: \'\'\n',
  'a: "tab\\tnew\\nline \\u00e9 \\x41 \\/ \\\\ \\""\nb: \'it\'\'s\'\nc: plain # comment\nd: "#not a comment"\ne: a#b\n',
  'a: |\n  line one\n  line two\nb: >\n  folded\n  text\n\n  para\nc: |-\n  strip\nd: >+\n  keep\n\ne: |2\n    indented\n',
  'a: multi\n  line\n  plain\nb: "double\n  quoted\n  lines"\n',
  '---\na: 1\n...\n',
  '\ufeffa: bom\n',
  'a: 1\r\nb: two\r\nc: [x, y]\r\n',
  '"quoted key": 1\n\'single\': 2\nkey with spaces: 3\n__proto__: 4\nconstructor: 5\n',
  'a: 2001:db8::1\nb: 10:20\nc: 1:2:3\nd: 12:30:00\ne: 2099-01-01\nf: 2099-01-01T10:00:00Z\n',
  'list:\n- a\n-   b\n- - nested\n  - more\n- {k: v, k2: [1, 2]}\n',
  'a: [1, 2, [3, {b: c}]]\nb: {}\nc: []\n',
  'a: -1\nb: - 1\n',
  'a: b: c\n',
  '[a]: b\n',
  'a: *x\n',
  'a: !!str 5\n',
  'a: 1\na: 2\n',
  'a: "unterminated\n',
  'a:\n\t- b\n',
  `${header}rules:\n  - { name: x, type: vpatch, attack: any, point: [[header, HOST]], when: [{ point: [path, 0], equal: a }] }\n`,
  `${header}rules:\n  - name: "x"\n    type: vpatch\n    attack: any\n    point:\n      - [header, X-Y]\n    comment: >-\n      folded\n      comment\n`,
  `${header}ip_lists:\n  deny:\n    - ips: [198.51.100.7, 10.16.0.0/12]\n      reason: 'quoted'\n      expires: 2059-01-01\n    - countries: [de]\n`,
  `${header}rules: []\nip_lists:\n  allow:\n    - ips:\n        - 192.0.2.1\n        - "192.0.2.2"\n`,
];

function repositoryYaml(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '*.yaml', '*.yml'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  return files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

function exampleYaml(): { file: string; text: string }[] {
  return RULE_KINDS.flatMap((kind) => kind.examples.map((example, i) => ({
    file: `example-${kind.yaml}-${i}.yaml`,
    text: `${header}${stringify({ rules: [{ name: `e${i}`, type: kind.yaml, ...example }] })}`,
  })));
}

export const corpus: readonly { readonly file: string; readonly text: string }[] = [
  ...repositoryYaml(),
  ...exampleYaml(),
  ...Array.from({ length: 20 }, (_, i) => ({ file: `bench-${i}.yaml`, text: policyText(i * 37) })),
  ...SPELLINGS.map((text, i) => ({ file: `spelling-${i}.yaml`, text })),
];

/** Every path of a parsed value: itself, then its members and items (the paths a source map answers for). */
export function valuePaths(data: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(data)) data.forEach((item, i) => out.push(...valuePaths(item, [...at, i])));
  else if (data !== null && typeof data === 'object') for (const [key, member] of Object.entries(data)) out.push(...valuePaths(member, [...at, key]));
  return out;
}
