/**
 * The source map the clean path's one pass makes (clean-yaml.ts) gives every
 * position the full parse gives (yaml.ts): each value's and each key's line and column, on
 * every path of every file the clean path reads, from the shared corpus and
 * from layouts chosen to move a node's start (comments, blank lines, values on
 * the next line, empty values, document markers, CRLF).
 */
import { describe, expect, it } from 'vitest';
import { readCleanYaml } from '../../../src/policy/clean-yaml.js';
import { parsePolicyText } from '../../../src/policy/yaml.js';
import { corpus, header, valuePaths } from '../../helpers/yaml-corpus.js';

/** Layouts that move where a node starts, or that js-yaml reports unlike the full parse. */
const LAYOUTS = [
  'a:   1\nb:    # comment\n  2\nc:\n\n  # comment\n\n  - x\n  -   y\n  -\n    z\n',
  'a:\nb: ~\nc: \nd:   \ne: [ ]\nf: { }\ng: [x,y ,  z ]\nh: {k: v,  j:   w}\n',
  'a:  # empty\nb:\n  # still empty\nc: {k: , j: 1}\nd: {k:}\ne: [x, ]\nf: [ , x]\n',
  '--- # start\na: 1\n',
  '---\n# comment\n\na: [1, 2]\n',
  'a: 1 # trailing\n# between\nb:\n  # before\n  c: 2\n',
  'list:\n  - - a\n    - b\n  - - c\n  -\n    - d\n',
  'list:\n  -\n    k: v\n  - k: w\n    j: x\n  - { k: y }\n',
  'a: "quoted # not a comment"\nb: \'x\'\nc: |\n  block\n  # not a comment\nd: >-\n  folded\n',
  'a: 1\r\nb:\r\n  - x\r\n  - { k: v }\r\n',
  'a: 1\nb:\n  - \n  - y\n',
  // Found by a differential fuzz: a root that only looks like a document marker, keys the data orders otherwise, an end marker.
  ' ---\n',
  ' --- : 1\n',
  '--- --- x\n',
  'b: 1\n2: x\n10: y\n',
  'a: 1\n...\n',
  `${header}rules:\n  # the first\n  - name: a\n    type: vpatch\n    attack: any\n    point: [[header, HOST]]\n\n  - name:   b\n    type: mode\n    mode: block\n    when:\n      - { point: [path, 0], equal: x }\n`,
  `${header}ip_lists:\n  deny:\n    - ips: [ 198.51.100.7,   10.16.0.0/12 ]\n    - ips:\n        # listed\n        - 192.0.2.1\n\n        - "192.0.2.2"\n      reason: r\n  allow: []\n`,
  // Long collections, whose entry starts and ends the tape's reader keeps once walked (spots-tape.ts), before later keys.
  `list:\n${Array.from({ length: 40 }, (_, i) => `  - { k: v${i}, n: [${i}, x], m: { a: [1, 2] } }\n`).join('')}after: [1]\n`,
  `${Array.from({ length: 20 }, (_, i) => `k${i}:\n  - [${i}, ${i + 1}]\n  - { j: ${i} }\n`).join('')}last: 1\n`,
];

const inputs = [...corpus, ...LAYOUTS.map((text, i) => ({ file: `layout-${i}.yaml`, text }))];


describe('positions of a clean file', () => {
  let compared = 0;

  it.each(inputs)('are the full parse\'s in $file', (input) => {
    const clean = readCleanYaml(input.text);
    if (!clean) return;
    compared++;
    const full = parsePolicyText(input);
    for (const path of valuePaths(full.data)) {
      expect(clean.map.at(path), `value at ${JSON.stringify(path)}`).toEqual(full.map.at(path));
      expect(clean.map.keyAt(path), `key at ${JSON.stringify(path)}`).toEqual(full.map.keyAt(path));
    }
  });

  it('are compared on most of the inputs', () => {
    expect(compared).toBeGreaterThan(inputs.length / 2);
  });

  it('are not trusted, and the file is left to the full parse, after a byte-order mark or an empty sequence item', () => {
    expect(readCleanYaml('\ufeffa: 1\n')).toBeUndefined();
    expect(readCleanYaml('a:\n  - \n  - y\n')).toBeUndefined();
    expect(readCleanYaml('a: [ , x]\n')).toBeUndefined();
  });

  it('are the full parse\'s after a file js-yaml gave up on half way and a file larger than the report kept between files', () => {
    // The report is kept from one file to the next: what a file left in it must not reach the next.
    const input = { file: 'after.yaml', text: `${header}rules: []\nip_lists:\n  deny:\n    - ips: [10.0.0.1]\n` };
    const large = Array.from({ length: 5000 }, (_, i) => `- item-${i}`).join('\n');
    expect(readCleanYaml('a:\n  b:\n    - c: 1\n   d: 2\n')).toBeUndefined();
    expect(readCleanYaml(`${large}\n`)).toBeDefined();
    const clean = readCleanYaml(input.text);
    const full = parsePolicyText(input);
    expect(clean?.data).toEqual(full.data);
    for (const path of valuePaths(full.data)) {
      expect(clean?.map.at(path), `value at ${JSON.stringify(path)}`).toEqual(full.map.at(path));
      expect(clean?.map.keyAt(path), `key at ${JSON.stringify(path)}`).toEqual(full.map.keyAt(path));
    }
  });

  it('reads keys in the text\'s order and a document end marker', () => {
    expect(readCleanYaml('b: 1\n2: x\n')?.map.keyAt(['2'])).toEqual({ line: 2, col: 1 });
    expect(readCleanYaml('a: 1\n...\n')?.map.at(['a'])).toEqual({ line: 1, col: 4 });
  });
});
