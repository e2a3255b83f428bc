import { describe, expect, it } from 'vitest';
import { DocumentCache } from '../../../src/policy/cache.js';
import { combineDocuments, validateDocuments } from '../../../src/policy/validate.js';
import type { PolicyOptions, PolicyText } from '../../../src/policy/types.js';
import { parsePolicyText } from '../../../src/policy/yaml.js';

const policy = (client: number, expires: string, extra = ''): string => `version: 1
client: ${client}
application: 1
rules:
  - name: r
    type: mode
    mode: block
    when:
      - { point: [path, 0], equal: "x${extra}" }
ip_lists:
  deny:
    - ips: [10.0.0.1, 10.0.0.0/24]
      expires: ${expires}
`;

const T = Date.parse('2030-06-01T00:00:00Z');

function cachedLoad(cache: DocumentCache, texts: readonly PolicyText[], options: PolicyOptions) {
  const session = cache.load(options, Math.floor((options.now ?? new Date()).getTime() / 1000));
  const compiled = texts.map((text) => session.compile(text));
  session.keep();
  return { compiled, result: combineDocuments(compiled) };
}

const fresh = (texts: readonly PolicyText[], options: PolicyOptions) =>
  validateDocuments(texts.map((text) => parsePolicyText(text, options)), options);

describe('DocumentCache', () => {
  const a = { file: 'a.yaml', text: policy(1, '2030-06-01T00:00:00Z') };
  const b = { file: 'b.yaml', text: policy(2, 'never', ' dup') };

  it('reuses unchanged files and gives the same result as a fresh load', () => {
    const cache = new DocumentCache();
    const options = { now: new Date(T - 10_000) };
    const first = cachedLoad(cache, [a, b], options);
    const second = cachedLoad(cache, [a, b], options);
    expect(second.compiled[0]).toBe(first.compiled[0]);
    expect(second.result).toEqual(fresh([a, b], options));
  });

  it('compiles a changed file again', () => {
    const cache = new DocumentCache();
    const options = { now: new Date(T - 10_000) };
    const first = cachedLoad(cache, [a, b], options);
    const changed = { file: 'b.yaml', text: policy(2, 'never', 'y') };
    const second = cachedLoad(cache, [a, changed], options);
    expect(second.compiled[0]).toBe(first.compiled[0]);
    expect(second.compiled[1]).not.toBe(first.compiled[1]);
    expect(second.result).toEqual(fresh([a, changed], options));
  });

  it('compiles again when an expiry lies between the two moments, either way round', () => {
    const cache = new DocumentCache();
    const before = { now: new Date(T - 1000) };
    const at = { now: new Date(T) };
    const first = cachedLoad(cache, [a, b], before);
    expect(first.result.desired?.ipEntries).toHaveLength(4);
    const second = cachedLoad(cache, [a, b], at);
    expect(second.compiled[0]).not.toBe(first.compiled[0]);
    expect(second.compiled[1]).toBe(first.compiled[1]);
    expect(second.result).toEqual(fresh([a, b], at));
    expect(second.result.diagnostics.map((d) => d.code)).toContain('expired');
    expect(second.result.desired?.ipEntries).toHaveLength(2);
    const third = cachedLoad(cache, [a, b], before);
    expect(third.result).toEqual(fresh([a, b], before));
    // Moving within the same side of every expiry keeps the result.
    const fourth = cachedLoad(cache, [a, b], { now: new Date(T - 500) });
    expect(fourth.compiled[0]).toBe(third.compiled[0]);
  });

  it('compiles again when the limits change', () => {
    const cache = new DocumentCache();
    const first = cachedLoad(cache, [a], {});
    const second = cachedLoad(cache, [a], { maxAliasCount: 5 });
    expect(second.compiled[0]).not.toBe(first.compiled[0]);
  });

  it('keeps only the files of the last load', () => {
    const cache = new DocumentCache();
    const first = cachedLoad(cache, [a, b], {});
    cachedLoad(cache, [b], {});
    const third = cachedLoad(cache, [a, b], {});
    expect(third.compiled[0]).not.toBe(first.compiled[0]);
    expect(third.compiled[1]).toBe(first.compiled[1]);
  });
});
