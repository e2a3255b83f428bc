import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, parsePolicyText } from '../../../src/policy/yaml.js';

const head = 'version: 1\nclient: 1\napplication: 1\n';

function codes(text: string) {
  return parsePolicyText({ file: 'deep.yaml', text }).diagnostics.map((d) => ({ code: d.code, line: d.line, col: d.col, message: d.message }));
}

describe('nesting depth', () => {
  it('900 flow levels: a yaml-too-deep error, not "Maximum call stack size exceeded"', () => {
    const found = codes(`${head}description: ${'['.repeat(900)}${']'.repeat(900)}\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'yaml-too-deep', message: `nesting deeper than ${MAX_DEPTH} levels; a policy needs far fewer`, line: 4 });
  });

  it('900 block levels too', () => {
    let text = `${head}x:\n`;
    for (let i = 1; i <= 900; i++) text += `${' '.repeat(i)}a:\n`;
    const found = codes(text);
    expect(found.map((d) => d.code)).toEqual(['yaml-too-deep']);
  });

  it('points at the first collection past the limit', () => {
    const found = codes(`${head}description: ${'['.repeat(MAX_DEPTH + 5)}${']'.repeat(MAX_DEPTH + 5)}\n`);
    // The root mapping is level 1: the sequence opened at column 14 + (MAX_DEPTH - 1) is one too many.
    expect(found).toEqual([expect.objectContaining({ code: 'yaml-too-deep', line: 4, col: 14 + MAX_DEPTH - 1 })]);
  });

  it('accepts nesting up to the limit', () => {
    const depth = MAX_DEPTH - 1;
    expect(codes(`${head}description: ${'['.repeat(depth)}${']'.repeat(depth)}\n`)).toEqual([]);
  });
});
