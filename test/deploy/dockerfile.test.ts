/** No Docker engine here: check the Dockerfile's key properties statically. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
/** Instructions with continuation lines joined and comments dropped. */
const lines = text
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const stages: string[][] = [];
for (const line of lines) {
  if (/^FROM\s/i.test(line)) stages.push([line]);
  else stages.at(-1)?.push(line);
}
const final = stages.at(-1) ?? [];

describe('Dockerfile', () => {
  it('is multi-stage on a current Node.js LTS base (26)', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^ARG NODE_IMAGE=node:26-(bookworm-slim|slim|alpine)$/m);
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM \$\{NODE_IMAGE\} AS \w+/);
  });

  it('builds with dev dependencies and installs only production dependencies for the runtime', () => {
    const build = stages.find((s) => s.some((l) => l.includes('tsc -p tsconfig.build.json'))) ?? [];
    expect(build.some((l) => /npm ci\b(?!.*--omit=dev)/.test(l))).toBe(true);
    expect(lines.some((l) => /npm ci .*--omit=dev/.test(l))).toBe(true);
    // The final stage installs nothing: it copies production node_modules from the deps stage.
    expect(final.some((l) => /\bnpm (install|i|ci)\b/.test(l))).toBe(false);
    const depsStage = final.find((l) => /^COPY --from=(\w+).*node_modules/.test(l))?.match(/--from=(\w+)/)?.[1];
    const deps = stages.find((s) => s[0]?.endsWith(`AS ${depsStage}`)) ?? [];
    expect(deps.some((l) => /npm ci .*--omit=dev/.test(l))).toBe(true);
    expect(final.some((l) => /^COPY --from=\w+ .*\/dist \.\/dist$/.test(l))).toBe(true);
    expect(final.some((l) => /^COPY .*schemas \.\/schemas$/.test(l))).toBe(true);
  });

  it('runs as a numeric non-root user with the CLI as entrypoint and the daemon as command', () => {
    const user = final.filter((l) => l.startsWith('USER ')).at(-1);
    expect(user).toMatch(/^USER [1-9]\d{3,}(:[1-9]\d{3,})?$/);
    expect(final).toContain('ENTRYPOINT ["node", "/app/dist/cli.js"]');
    expect(final).toContain('CMD ["run"]');
    expect(final.join('\n')).toMatch(/RAMPART_LISTEN=0\.0\.0\.0:9464/);
    expect(final).toContain('EXPOSE 9464');
  });

  it('writes nothing at run time (read-only root) and leaves signals to the daemon', () => {
    expect(final.some((l) => /^VOLUME/.test(l))).toBe(false);
    expect(final.some((l) => /^RUN /.test(l))).toBe(false);
    // exec-form ENTRYPOINT: node is PID 1 and receives SIGTERM directly.
    expect(final.find((l) => l.startsWith('ENTRYPOINT'))).toMatch(/^ENTRYPOINT \[/);
  });

  it('keeps the build context small', () => {
    const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', 'dist', '.git', 'test']) expect(ignore).toContain(entry);
    for (const needed of ['src', 'schemas', 'package.json', 'package-lock.json']) expect(ignore).not.toContain(needed);
  });

  it('carries no policies: the sample ones stay out of the context and no stage copies any', () => {
    const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignore).toContain('policies');
    expect(lines.filter((l) => /^COPY\b.*\bpolicies\b/.test(l))).toEqual([]);
    expect(final.some((l) => /RAMPART_POLICIES=/.test(l))).toBe(false);
  });
});
