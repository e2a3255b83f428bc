/**
 * A wrong indentation is reported at the line the user wrote, in plain words
 * (which key or item, how far it is indented, where it belongs), in place of
 * the YAML parser's errors it causes; a file the parser accepts is never
 * flagged.
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadPolicyTexts } from '../../../src/policy/index.js';
import { indentationProblems } from '../../../src/policy/indentation.js';
import { corpus, header } from '../../helpers/yaml-corpus.js';

const diagnosticsOf = (text: string) => loadPolicyTexts([{ file: 'policies/shop.yaml', text }]).diagnostics
  .map(({ line, col, code, message }) => ({ line, col, code, message }));

describe('a mis-indented policy', () => {
  it('a key indented deeper than the one above it: reported at its own line, not the line before, in plain words', () => {
    const text = [
      'version: 1',
      'client: 10042',
      'application: 7',
      'rules:',
      '  - name: search-sqli',
      '    type: vpatch',
      '      attack: sqli',
      '    point: [[get, q]]',
      '',
    ].join('\n');
    // The parser's own report: line 6, "Implicit keys need to be on a single line".
    expect(parseAllDocuments(text)[0]!.errors.map((e) => e.linePos?.[0].line)).toEqual([6, 6]);
    expect(diagnosticsOf(text)).toEqual([{
      line: 7, col: 7, code: 'yaml-indentation',
      message: '`attack:` is indented 6 spaces, deeper than `type:` (line 6, 4 spaces), which already has its value: indent it 4 spaces, as `type:`',
    }]);
  });

  it('a key indented less than the keys of its item', () => {
    expect(diagnosticsOf(`${header}rules:\n  - name: a\n    type: vpatch\n    attack: sqli\n   point: [[get, q]]\n`)).toEqual([{
      line: 8, col: 4, code: 'yaml-indentation',
      message: "`point:` is indented 3 spaces, between `attack:` (line 7, 4 spaces) and the list's `-` (line 5, 2 spaces): indent it 4 spaces, as `attack:`",
    }]);
  });

  const cases: { name: string; text: string; line: number; message: string }[] = [
    { name: 'a top-level key indented', text: 'version: 1\n client: 10042\napplication: 7\n', line: 2, message: '`client:` is indented 1 space, deeper than `version:` (line 1, 0 spaces), which already has its value: start it at the beginning of the line, as `version:`' },
    { name: "a key at the list's column", text: `${header}rules:\n  - name: a\n    type: vpatch\n  attack: sqli\n`, line: 7, message: "`attack:` is indented 2 spaces, as the list's `-` (line 5, 2 spaces), so it belongs to no item: indent it 4 spaces, as `type:`, to keep it in the item above" },
    { name: 'an item out of line with the others', text: `${header}rules:\n  - name: a\n    type: mode\n    mode: block\n   - name: b\n    type: mode\n    mode: block\n`, line: 8, message: "`- name:` is indented 3 spaces, between `mode:` (line 7, 4 spaces) and the list's `-` (line 5, 2 spaces): indent it 2 spaces, as the list's `-`" },
    { name: 'an item at the keys of the item above', text: `${header}rules:\n  - name: a\n    type: mode\n    mode: block\n    - name: b\n      type: mode\n      mode: block\n`, line: 8, message: "`- name:` is indented 4 spaces, level with the key `mode:` (line 7, 4 spaces), which already has its value: indent it 2 spaces, as the list's `-`, to make it the next item" },
    { name: 'an IP entry key too deep', text: `${header}ip_lists:\n  deny:\n    - ips: [203.0.113.7]\n        reason: scanner\n`, line: 7, message: '`reason:` is indented 8 spaces, deeper than `ips:` (line 6, 6 spaces), which already has its value: indent it 6 spaces, as `ips:`' },
    { name: 'a tab', text: `${header}rules:\n  - name: a\n\ttype: vpatch\n`, line: 6, message: 'a tab indents this line, and YAML indents with spaces only: replace the tab with spaces' },
  ];
  for (const { name, text, line, message } of cases) {
    it(`${name}: line ${line}`, () => {
      expect(diagnosticsOf(text)).toEqual([expect.objectContaining({ line, code: 'yaml-indentation', message })]);
    });
  }

  it('reports every misplaced line of a file at once, reading the lines after each as the author meant', () => {
    const text = `${header}rules:\n  - name: a\n    type: vpatch\n      attack: sqli\n    point: [[get, q]]\n  - name: b\n    type: mode\n     mode: block\n`;
    expect(diagnosticsOf(text).map((d) => [d.line, d.code])).toEqual([[7, 'yaml-indentation'], [11, 'yaml-indentation']]);
  });

  it('leaves other YAML errors in the parser\'s words', () => {
    expect(diagnosticsOf(`${header}rules:\n  - name: "unclosed\n`)).toEqual([expect.objectContaining({ code: 'yaml-syntax' })]);
  });
});

describe('files the YAML parser accepts', () => {
  it('are never said to be mis-indented: every YAML file of the repository, every example, the bench policies and the tricky spellings', () => {
    const accepted = corpus.filter(({ text }) => parseAllDocuments(text).every((doc) => doc.errors.length === 0));
    expect(accepted.length).toBeGreaterThan(50);
    for (const { file, text } of accepted) expect(indentationProblems(text), file).toEqual([]);
  });
});
