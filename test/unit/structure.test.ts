/**
 * The shape of the source, checked so it stays that way:
 * - The source folders form layers that only import downward: the service's
 *   grammar at the bottom, then the rule catalogue, then the model, the
 *   commands at the top. A folder may import
 *   itself, the files at the root of src/ (errors, log, ...) and the folders
 *   listed for it here; anything else is an import against the layering.
 * - Code outside the object classes' own modules does not ask which class a
 *   change is: it looks the class up by `kind` (plan/classes, apply/classes,
 *   audit/classes).
 * - What a class is, is the class's: outside the `classes/` folders at most 7
 *   files (the registry, adoption and what it takes and gives, recognition,
 *   exports left behind, the impact's evaluation) know both the rule and the
 *   IP model.
 * - Behaviour that differs by a change's action is a table keyed by action,
 *   not a hand-written test of it (model/by-action.ts).
 * - Every layer's table of classes is a registry (model/class-table.ts): a
 *   class registered at runtime reaches every layer through them.
 * - The files at the root of src/ import no folder: they sit beneath all of them.
 * - No import circles among the source files: a registry (a `classes/index.ts`)
 *   imports its class files, and nothing they import imports it back; what
 *   both sides share lives in a file below them. Type-only imports
 *   (`import type`, `export type`) count as imports here, as do dynamic
 *   `import()`s: a circle that exists only through types or a lazy load is
 *   still a knot a reader has to untie, and the type has a file below both.
 * - Errors a user can meet are coded (src/errors.ts), not plain `Error`s.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Each folder and the folders below it that it may import. */
const BELOW: Readonly<Record<string, readonly string[]>> = {
  // The service's grammar (points, the regex dialect, its words for values) is the bottom:
  // the rule catalogue reads it, and the model reads both.
  grammar: [],
  rules: ['grammar'],
  model: ['rules', 'grammar'],
  api: ['model', 'rules', 'grammar'],
  policy: ['model', 'rules', 'grammar'],
  plan: ['model', 'rules', 'grammar'],
  live: ['api', 'model', 'rules', 'grammar'],
  audit: ['plan', 'model', 'rules', 'grammar'],
  apply: ['audit', 'plan', 'live', 'api', 'model', 'rules', 'grammar'],
  fmt: ['policy', 'model', 'rules', 'grammar'],
  export: ['fmt', 'policy', 'plan', 'model', 'rules', 'grammar'],
  hits: ['api', 'model', 'rules', 'grammar'],
  tune: ['hits', 'policy', 'api', 'model', 'rules', 'grammar'],
  impact: ['hits', 'plan', 'api', 'model', 'rules', 'grammar'],
  reconcile: ['apply', 'audit', 'export', 'plan', 'live', 'policy', 'api', 'model', 'rules', 'grammar'],
  ci: ['reconcile', 'plan', 'model', 'rules', 'grammar'],
  daemon: ['reconcile', 'apply', 'audit', 'plan', 'live', 'policy', 'api', 'model', 'rules', 'grammar'],
  // The emulator is an independent oracle: it shares nothing with the client but the root utilities.
  emulator: [],
  tools: ['policy', 'rules', 'model', 'grammar'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file, as written: static imports and re-exports (type-only too), side-effect imports, and dynamic `import()`. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^;]*? from ["'](\.[^"']+)["']|^import ["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/gms)]
    .map((match) => (match[1] ?? match[2] ?? match[3]) as string);
}

/** `src/plan/render/blocks.ts` → `plan`; a file at the root of src → undefined. */
function folderOf(file: string): string | undefined {
  const parts = relative(SRC, file).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

describe('layers', () => {
  const files = sources(SRC);

  it('declares every source folder (commands may import anything)', () => {
    const folders = new Set(files.map(folderOf).filter((f): f is string => f !== undefined && f !== 'commands'));
    expect([...folders].filter((f) => !(f in BELOW))).toEqual([]);
  });

  it('only import downward', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      if (from === undefined || from === 'commands') continue;
      for (const target of relativeImports(file)) {
        const to = folderOf(join(file, '..', target));
        if (to === undefined || to === from || (BELOW[from] ?? []).includes(to)) continue;
        upward.push(`${relative(SRC, file)} imports ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});

describe('imports', () => {
  it('form no circle among the source files, type-only and dynamic imports included', () => {
    const files = sources(SRC);
    const known = new Set(files);
    const imports = new Map(files.map((file) => [file, relativeImports(file)
      .map((target) => join(file, '..', target).replace(/\.js$/, '.ts'))
      .filter((path) => known.has(path))]));
    expect(importCircles(files, imports).map((circle) => circle.map((file) => relative(SRC, file)).join(', '))).toEqual([]);
  });
});

/** The strongly connected groups of more than one file (Tarjan's algorithm), each sorted: every import circle once. */
function importCircles(files: readonly string[], imports: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of imports.get(file) ?? []) {
      if (!order.has(next)) visit(next);
      if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file) as number, lowest.get(next) as number));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return circles;
}

describe('object classes', () => {
  const files = sources(SRC).filter((file) => folderOf(file) !== 'emulator');

  it('are not branched on outside their modules (at most 8 places)', () => {
    const branches = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      // A comparison with a class name, or a test of a change's shape that tells the classes apart (`'ids' in change`).
      return [...text.matchAll(/kind\s*[!=]==?\s*["'](?:rule|ip)["']|["'](?:rule|ip)["']\s*[!=]==?|case ["'](?:rule|ip)["']:|["'](?:id|ids)["'] in /g)].map(() => relative(SRC, file));
    });
    expect(branches.length, branches.join('\n')).toBeLessThanOrEqual(8);
  });
});

describe('state keyed by class', () => {
  it('at most 7 files outside the class folders know both the rule and the IP model: the registry and the passes that cross classes', () => {
    // A class's model is its modules in src/model (rule.ts, rule-change.ts, ...); a class folder is any `classes/` folder.
    const both = sources(SRC)
      .filter((file) => folderOf(file) !== 'emulator' && !/[\\/]classes[\\/]/.test(file))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        const model = folderOf(file) === 'model';
        // Inside src/model a class's modules are `./rule.js`; elsewhere `../model/rule.js`.
        const rule = model ? /from ["']\.\/rule(?:-[a-z]+)?\.js["']/.test(text) : /model\/rule(?:-[a-z]+)?\.js["']/.test(text);
        const ip = model ? /from ["']\.\/ip(?:-[a-z]+)?\.js["']/.test(text) : /model\/ip(?:-[a-z]+)?\.js["']/.test(text);
        return rule && ip;
      })
      .map((file) => relative(SRC, file));
    expect(both.length, both.join('\n')).toBeLessThanOrEqual(7);
  });
});

describe('class tables', () => {
  it('are registries: every table keyed by class is a ClassTable seeded by its built-in classes, with a registration point beside it', () => {
    // Each layer's table of classes lives in its `classes/index.ts`; render's in plan/render/blocks.ts, the model's in model/object-class.ts.
    const tables = sources(SRC).filter((file) => /[\\/]classes[\\/]index\.ts$/.test(file)
      || file.endsWith(join('render', 'blocks.ts')) || file.endsWith(join('model', 'object-class.ts')));
    expect(tables.length).toBe(9);
    const closed = tables.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return !/new ClassTable</.test(text) || !/export function register\w+(?:<[^>]*>)?\(kind: string/.test(text);
    }).map((file) => relative(SRC, file));
    expect(closed).toEqual([]);
    // Nowhere else is a record keyed by class indexed with a class name: those are what a registered class would miss.
    const indexed = sources(SRC)
      .filter((file) => folderOf(file) !== 'emulator')
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/[A-Z_]+_CLASSES\[/g)].map(() => relative(SRC, file)));
    expect(indexed).toEqual([]);
  });
});

describe('actions', () => {
  it('are never told apart by hand in the class adapters: each layer keys its cells by action (model/by-action.ts)', () => {
    const adapters = sources(SRC).filter((file) => /[\\/](plan|audit|apply)[\\/]classes[\\/]/.test(file));
    expect(adapters.length).toBeGreaterThanOrEqual(10);
    const branches = adapters.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\.action\s*[!=]==?\s*["']/g)].map(() => relative(SRC, file)));
    expect(branches, branches.join('\n')).toEqual([]);
  });
});

describe('actions outside the adapters', () => {
  it('are told apart by hand in at most 20 places outside the emulator: the rest groups or keys by action (model/by-action.ts)', () => {
    // src/ci's `create`/`update` are a PR comment's, not a change's.
    const files = sources(SRC).filter((file) => !['emulator', 'ci'].includes(folderOf(file) ?? ''));
    const tests = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\.action\s*[!=]==?|switch \([\w.]*\.action\)|case ["'](?:create|update|delete|adopt|replace)["']:/g)]
      .map(() => relative(SRC, file)));
    expect(tests.length, tests.join('\n')).toBeLessThanOrEqual(20);
  });
});

describe('root files', () => {
  it('import no folder: they are the utilities every folder may use; cli.ts, the process itself, is the one entry above them all', () => {
    const roots = sources(SRC).filter((file) => folderOf(file) === undefined && !file.endsWith(`${'/'}cli.ts`));
    expect(roots.length).toBeGreaterThanOrEqual(10);
    const upward = roots.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*? from ["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/gms)]
      .map((match) => match[1] ?? match[2] ?? '')
      .filter((target) => folderOf(join(file, '..', target)) !== undefined)
      .map((target) => `${relative(SRC, file)} imports ${target}`));
    expect(upward).toEqual([]);
  });
});

describe('errors', () => {
  it('are plain `new Error(` in at most 3 places outside the emulator', () => {
    const plain = sources(SRC).filter((file) => folderOf(file) !== 'emulator')
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/new Error\(/g)].map(() => relative(SRC, file)));
    expect(plain.length, plain.join('\n')).toBeLessThanOrEqual(3);
  });
});

describe('the IP-list backends', () => {
  const BACKENDS = join(SRC, 'live', 'ip-backends');
  const outside = () => sources(SRC).filter((file) => !file.startsWith(BACKENDS) && !['api', 'emulator'].includes(folderOf(file) ?? ''));

  it('are called only inside live/ip-backends: the IP adapters use neither API\'s client calls', () => {
    const calls = outside().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\.(listIpRules|createIpRule|deleteIpRules|listIpGroups|createAccessRules|deleteIpGroups)\(/g)]
      .map((match) => `${relative(SRC, file)} calls ${match[1] ?? ''}`));
    expect(calls).toEqual([]);
  });

  it('are reached through their index alone: no file outside imports one backend', () => {
    const imports = outside().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/from ["']([^"']*ip-backends\/(?!index\.js)[^"']+)["']/g)]
      .map((match) => `${relative(SRC, file)} imports ${match[1] ?? ''}`));
    expect(imports).toEqual([]);
  });
});
