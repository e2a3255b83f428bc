/**
 * The clean path's one pass (clean-yaml.ts) against the full parse
 * (yaml.ts) on generated YAML: nested block and flow collections, plain,
 * quoted and block scalars, comments and blank lines in odd places, empty
 * values, document markers, CRLF. Whatever the clean path accepts must read
 * as the same data, with no error the full parse reports, and every position
 * of its map must be the full parse's. A review's fuzz of this kind (700,000
 * texts) found the layouts clean-declines.ts now declines; this keeps a seeded
 * share of it in the suite, so a change to either reader or to the declined
 * layouts is checked the same way.
 */
import { describe, expect, it } from 'vitest';
import { readCleanYaml } from '../../../src/policy/clean-yaml.js';
import { parsePolicyText } from '../../../src/policy/yaml.js';
import { valuePaths } from '../../helpers/yaml-corpus.js';

/** A small seeded generator (mulberry32): the same texts on every run. */
function randomness(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    chance: (p: number): boolean => next() < p,
    below: (n: number): number => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

type Random = ReturnType<typeof randomness>;

const PLAIN = ['a', 'name', 'x y', '10.0.0.0/8', '2001:db8::1', '42', '-1', '3.5', 'true', 'null', '~', 'é', '日本', 'a#b', 'a:b', 'http://h/p', '---x', '...x', 'k=v', '1e3', '.inf', 'yes', ''];
const QUOTED = ['""', '"dq"', '"a: b"', '"#x"', '"\\u00e9"', "''", "'sq'", "'it''s'", "'a: b'"];
const KEYS = ['a', 'b', 'name', 'type', 'key with spaces', '1', '10', 'true', 'é', '"quoted"', "'single'", '__proto__', 'a.b', 'x-y'];
const COMMENTS = ['# c', '#', '# - x: y', '#no space'];

function scalar(r: Random, inFlow: boolean): string {
  if (r.chance(0.25)) return r.pick(QUOTED);
  const word = r.pick(PLAIN);
  return inFlow && /[,[\]{}#:]/.test(word) ? 'w' : word;
}

function flow(r: Random, depth: number): string {
  const space = (): string => r.pick(['', ' ', '  ']);
  const kind = depth > 2 ? 0 : r.below(3);
  if (kind === 0) return scalar(r, true);
  const count = r.below(4);
  if (kind === 1) return `[${Array.from({ length: count }, () => space() + flow(r, depth + 1) + space()).join(',')}]`;
  const keys = [...new Set(Array.from({ length: count }, () => r.pick(KEYS)))];
  return `{${keys.map((key) => `${space()}${key}:${r.chance(0.15) ? '' : ` ${flow(r, depth + 1)}`}${space()}`).join(',')}}`;
}

/** Lines that may come between two entries: blank, white space, comments at any indentation. */
function between(r: Random, indent: number): string {
  let out = '';
  while (r.chance(0.2)) out += r.pick(['\n', '  \n', `${' '.repeat(indent)}${r.pick(COMMENTS)}\n`, `${r.pick(COMMENTS)}\n`]);
  return out;
}

/** A value after `key:` or `- `, at `indent` (its lines, each ending in a newline). */
function value(r: Random, indent: number, depth: number): string {
  const pad = ' '.repeat(indent);
  const trailing = r.chance(0.15) ? ` ${r.pick(COMMENTS)}` : r.chance(0.1) ? ' ' : '';
  const kind = depth > 3 ? 0 : r.below(7);
  if (kind <= 1) return ` ${scalar(r, false)}${trailing}\n`;
  if (kind === 2) return `${trailing}\n`;
  if (kind === 3) return ` ${r.pick(['|', '>', '|-', '>-'])}${trailing}\n${pad}  line\n${r.chance(0.3) ? `${pad}  # not a comment\n` : ''}${pad}  more\n`;
  if (kind === 4) return ` ${flow(r, 0)}${trailing}\n`;
  const inner = indent + r.pick([1, 2, 4]);
  return `${trailing}\n${between(r, inner)}${kind === 5 ? mapping(r, inner, depth + 1) : sequence(r, r.chance(0.5) ? indent : inner, depth + 1)}`;
}

function mapping(r: Random, indent: number, depth: number): string {
  const keys = [...new Set(Array.from({ length: 1 + r.below(4) }, () => r.pick(KEYS)))];
  return keys.map((key) => `${' '.repeat(indent)}${key}:${value(r, indent, depth)}${between(r, indent)}`).join('');
}

function sequence(r: Random, indent: number, depth: number): string {
  return Array.from({ length: 1 + r.below(4) }, () => {
    const item = r.chance(0.3) && depth < 3
      ? `\n${mapping(r, indent + 2, depth + 1)}`
      : r.chance(0.3) && depth < 3 ? ` ${mapping(r, indent + 2, depth + 1).trimStart()}` : value(r, indent, depth);
    return `${' '.repeat(indent)}-${item}${between(r, indent)}`;
  }).join('');
}

function document(r: Random): string {
  let text = `${r.chance(0.2) ? r.pick(['---\n', '--- # start\n', '# head\n']) : ''}${between(r, 0)}${r.chance(0.8) ? mapping(r, 0, 0) : sequence(r, 0, 0)}`;
  if (r.chance(0.1)) text += '...\n';
  return r.chance(0.1) ? text.replace(/\n/g, '\r\n') : text;
}


describe('the clean path on generated YAML', () => {
  it('reads what the full parse reads, at the full parse\'s positions, or declines', () => {
    const r = randomness(2026);
    let accepted = 0;
    for (let i = 0; i < 3_000; i++) {
      const text = document(r);
      const clean = readCleanYaml(text);
      if (!clean) continue;
      accepted++;
      const full = parsePolicyText({ file: 'fuzz.yaml', text });
      const shown = JSON.stringify(text);
      // Not even a warning: a file the one pass reads is never parsed again to find one.
      expect(full.diagnostics, shown).toEqual([]);
      expect(clean.data, shown).toEqual(full.data);
      for (const path of valuePaths(full.data)) {
        expect(clean.map.at(path), `${shown} value at ${JSON.stringify(path)}`).toEqual(full.map.at(path));
        expect(clean.map.keyAt(path), `${shown} key at ${JSON.stringify(path)}`).toEqual(full.map.keyAt(path));
      }
    }
    // The generator must keep reaching both readers, not only the declined layouts.
    expect(accepted).toBeGreaterThan(600);
  });
});
