import { readFile } from 'node:fs/promises';

/** The version in package.json, read once. */
let cached: Promise<string> | undefined;

export function packageVersion(): Promise<string> {
  cached ??= readFile(new URL('../package.json', import.meta.url), 'utf8').then(
    (text) => (JSON.parse(text) as { version: string }).version,
  );
  return cached;
}
