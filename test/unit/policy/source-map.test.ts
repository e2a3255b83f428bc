import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/garbage-collector.js';
import { parsePointer, pointer, type SourceMap } from '../../../src/policy/source-map.js';
import { parsePolicyText } from '../../../src/policy/yaml.js';

const text = [
  'top: &t { a: 1, b: [x, y] }', // 1
  'copy: *t', // 2
  '"a/b~c": 3', // 3
  '__proto__: 4', // 4
  'list:', // 5
  '  - one', // 6
  '  -', // 7
  '  - k: v', // 8
  '    empty:', // 9
  '"1": 5', // 10
].join('\n');

describe('SourceMap', () => {
  const { map, data } = parsePolicyText({ file: 'f.yaml', text });

  it('places values and keys by path and by JSON pointer alike', () => {
    expect(map.at(['top', 'b', 1])).toEqual({ line: 1, col: 24 });
    expect(map.value('/top/b/1')).toEqual({ line: 1, col: 24 });
    expect(map.keyAt(['top', 'b'])).toEqual({ line: 1, col: 17 });
    expect(map.key('/top/b')).toEqual({ line: 1, col: 17 });
    expect(map.value('/list/0')).toEqual({ line: 6, col: 5 });
  });

  it('places an alias, and everything it expands to, at the alias: where the value is used', () => {
    expect(map.at(['copy'])).toEqual({ line: 2, col: 7 });
    expect(map.at(['copy', 'b', 0])).toEqual({ line: 2, col: 7 });
    expect(map.keyAt(['copy', 'a'])).toEqual({ line: 2, col: 7 });
    // The anchored value itself keeps its own positions.
    expect(map.at(['top', 'b', 0])).toEqual({ line: 1, col: 21 });
  });

  it('escapes and unescapes keys holding / and ~, and keeps __proto__ an ordinary key', () => {
    expect(pointer(['a/b~c', 0])).toBe('/a~1b~0c/0');
    expect(parsePointer('/a~1b~0c/0')).toEqual(['a/b~c', '0']);
    expect(map.value(pointer(['a/b~c']))).toEqual({ line: 3, col: 10 });
    expect(map.key('/__proto__')).toEqual({ line: 4, col: 1 });
    expect(Object.keys(data as object)).toContain('__proto__');
  });

  it('falls back to the nearest known ancestor', () => {
    expect(map.value('/top/b/7')).toEqual({ line: 1, col: 20 });
    expect(map.value('/list/00')).toEqual({ line: 6, col: 3 });
    expect(map.value('/list/2/empty')).toEqual({ line: 9, col: 11 });
    expect(map.key('/list/1')).toEqual({ line: 7, col: 4 });
    expect(map.value('/nowhere/deep')).toEqual({ line: 1, col: 1 });
    expect(map.value('/1')).toEqual({ line: 10, col: 6 });
  });
});

describe('the map of a full parse', () => {
  it('does not keep the parsed YAML document alive', async () => {
    // The module parsePolicyText loads (by require): its parse is wrapped to see the documents it returns.
    const yaml = createRequire(import.meta.url)('yaml') as { parseAllDocuments: (...args: unknown[]) => unknown };
    const parse = yaml.parseAllDocuments;
    const documents: WeakRef<object>[] = [];
    yaml.parseAllDocuments = (...args) => {
      const docs = parse(...args);
      for (const doc of Array.isArray(docs) ? docs : [docs]) documents.push(new WeakRef(doc as object));
      return docs;
    };
    let map: SourceMap;
    try {
      ({ map } = parsePolicyText({ file: 'f.yaml', text }));
    } finally {
      yaml.parseAllDocuments = parse;
    }
    // A WeakRef holds its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(collectGarbage()).toBe(true);
    expect(documents).toHaveLength(1);
    expect(documents[0]?.deref()).toBeUndefined();
    expect(map.at(['list', 2, 'k'])).toEqual({ line: 8, col: 8 });
  });
});
