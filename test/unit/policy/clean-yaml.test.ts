/**
 * The clean path of loading (clean-yaml.ts) must read every file it accepts as
 * the full path (yaml.ts) does, and a file compiled through it, once, must come
 * out exactly as through the full path: objects, sources (line and column) and
 * diagnostics, at the positions of its own map. Checked on every YAML file of the repository, the generated
 * bench policies, every rule kind's examples, and spellings chosen to tell two
 * YAML readers apart.
 */
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/garbage-collector.js';
import { compileDocument } from '../../../src/policy/compile-document.js';
import { compilePolicyText } from '../../../src/policy/compile-text.js';
import { hasMultiLineFlow } from '../../../src/policy/clean-declines.js';
import { readCleanYaml } from '../../../src/policy/clean-yaml.js';
import { parsePolicyText } from '../../../src/policy/yaml.js';
import { corpus, header } from '../../helpers/yaml-corpus.js';

const NOW = 1_800_000_000;

describe('the clean path of loading', () => {
  it('reads the corpus', () => {
    expect(corpus.length).toBeGreaterThan(100);
    // Most real files are clean: the path must not decline everything.
    expect(corpus.filter((input) => readCleanYaml(input.text)).length).toBeGreaterThan(corpus.length / 2);
  });

  it.each(corpus)('reads $file as the full parse does, or declines it', (input) => {
    const clean = readCleanYaml(input.text);
    if (!clean) return;
    const full = parsePolicyText(input);
    expect(full.diagnostics).toEqual([]);
    expect(clean.data).toEqual(full.data);
  });

  it.each(corpus)('compiles $file exactly as the full path', (input) => {
    const fast = compilePolicyText(input, {}, NOW);
    const full = compileDocument(parsePolicyText(input), NOW);
    expect(fast).toEqual(full);
    // The sources' positions, read through their getters.
    expect(JSON.stringify([...fast.objects.rule, ...fast.objects.ip].map((o) => o.source)))
      .toBe(JSON.stringify([...full.objects.rule, ...full.objects.ip].map((o) => o.source)));
  });

  it('declines what it cannot be sure of: aliases, tags, collection keys, tabs, several documents', () => {
    for (const text of ['a: &x 1\nb: *x\n', 'a: !!str 5\n', '[a]: b\n', '? a\n: b\n', 'a:\n\tb: 1\n', 'a: 1\n---\nb: 2\n', '%YAML 1.1\n---\na: yes\n', 'a: [1,\n  2]\n', '']) {
      expect(readCleanYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('declines where a differential fuzz found js-yaml reading other data than the full parse, or accepting what it refuses', () => {
    // A carriage return ending no line, `---` or `...` run into text, a byte-order mark past the start,
    // a block scalar's explicit indentation, a comment right after a closing quote.
    for (const text of ['a: 1\rb: 2\n', '#\r>-\n x\n', '---x\n', '-----\n', '...x: 1\n', '\n\ufeffb\n', '|1-\n lead\n', 'a: >+2\n  x\n', '""#c\n']) {
      expect(readCleanYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('reads every spelling of the core schema\'s scalars, and what only starts like one, as the full parse does', () => {
    // The clean path tries the core patterns only on a plain scalar whose first character can start one.
    const spellings = [
      '', '~', 'null', 'Null', 'NULL', 'nULL', 'nul', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'fals',
      '0o17', '0o8', '017', '+17', '-17', '0x1F', '0x1G', '.inf', '-.inf', '+.Inf', '.INF', '.nan', '.NaN', '.NAN', '-.nan',
      '1e3', '-1.5e-3', '+.5E+2', '.5', '5.', '+.5', '-.', '1_000', '.', '-', '+', '~x', 'n', 't', 'f', 'x1', 'Yes', 'on', '2059-01-01',
    ];
    for (const spelling of spellings) {
      const text = `v: ${spelling}\n`;
      expect(readCleanYaml(text)?.data, JSON.stringify(text)).toEqual(parsePolicyText({ file: 'p.yaml', text }).data);
      // As a sequence item too, unless the item reads as empty, which the clean path leaves to the full parse.
      const item = `- ${spelling}\n`;
      const clean = readCleanYaml(item);
      if (clean) expect(clean.data, JSON.stringify(item)).toEqual(parsePolicyText({ file: 'p.yaml', text: item }).data);
    }
  });

  it('reads a plain policy', () => {
    expect(readCleanYaml(`${header}rules: []\n`)?.data).toEqual({ version: 1, client: 10042, application: 7, rules: [] });
  });
});

describe('what the clean path keeps', () => {
  it('keeps neither the text js-yaml parsed nor its report of the nodes alive', () => {
    // js-yaml parses its own copy of the text, and a long value cut out of it is a view that keeps that copy whole;
    // the report holds such values too, and a closure sharing its scope would keep it for as long as the map.
    const read = (): [unknown, unknown] => {
      const lines = Array.from({ length: 200_000 }, (_, i) => `- value-number-${i}-${'x'.repeat(20)}`);
      const parsed = readCleanYaml(`${lines.join('\n')}\n`);
      return [(parsed?.data as string[] | undefined)?.[123], parsed?.map];
    };
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const [kept, map] = read();
    collectGarbage();
    const held = process.memoryUsage().heapUsed - before;
    expect(kept).toBe(`value-number-123-${'x'.repeat(20)}`);
    expect(map).toBeDefined();
    // The text is about 8 MB; held whole, it would be all of that. The map keeps 4 bytes a line and a value (1.6 MB).
    expect(held).toBeLessThan(3 * 2 ** 20);
  });
});

describe('hasMultiLineFlow', () => {
  it('finds what the line-by-line reader found, on 50,000 generated texts', () => {
    // The reader before the scan: each line on its own, a regex for what a quote may follow
    // (it also skipped a text without brackets, which let quoted scalars over several lines through).
    const lineByLine = (text: string): boolean => {
      for (const line of text.split('\n')) {
        let open = 0;
        let quote: string | undefined;
        for (let i = 0; i < line.length; i++) {
          const c = line[i];
          if (quote) {
            if (c === "'" && quote === "'" && line[i + 1] === "'") i++;
            else if (c === quote) quote = undefined;
            else if (c === '\\' && quote === '"') i++;
          } else if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(line[i - 1] ?? ''))) quote = c;
          else if (c === '#' && (i === 0 || line[i - 1] === ' ')) break;
          else if (c === '[' || c === '{') open++;
          else if (c === ']' || c === '}') open--;
        }
        if (open > 0 || quote !== undefined) return true;
      }
      return false;
    };
    const pieces = ['[', ']', '{', '}', '"', "'", '\\', '#', ' ', '\n', '\r', '\t', 'a', ':', ',', '- ', 'key: ', '\u00a0', '\u2028', '\ufeff', '\u200b'];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let found = 0;
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      const parts = Math.floor(next() * 16);
      for (let p = 0; p < parts; p++) text += pieces[Math.floor(next() * pieces.length)];
      const expected = lineByLine(text);
      if (expected) found++;
      expect(hasMultiLineFlow(text), JSON.stringify(text)).toBe(expected);
    }
    // Both answers came up often.
    expect(found).toBeGreaterThan(5_000);
    expect(found).toBeLessThan(45_000);
  });
});
