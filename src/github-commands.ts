/**
 * GitHub Actions workflow commands (`::error file=..,line=..::message`), shared
 * by `validate` and `plan`. Escaping as GitHub's runner requires: `%`, CR and LF
 * everywhere, plus `:` and `,` in property values.
 */

import { isAbsolute, relative, resolve, sep } from 'node:path';

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One annotation line; properties in the given order. */
export function annotation(level: AnnotationLevel, props: Record<string, string | number>, message: string): string {
  const list = Object.entries(props).map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(',');
  return list ? `::${level} ${list}::${escapeData(message)}` : `::${level}::${escapeData(message)}`;
}

/**
 * GitHub places an annotation by its path from the repository root. When the
 * run's working directory is a subdirectory (a monorepo), a policy path
 * relative to it is mapped through GITHUB_WORKSPACE; outside a workspace, or
 * for a file outside it, the path stays as it is.
 */
export function repositoryPath(workspace: string | undefined, cwd: string): (file: string) => string {
  if (!workspace) return (file) => file;
  return (file) => {
    const fromRoot = relative(workspace, resolve(cwd, file));
    return fromRoot === '' || fromRoot.startsWith('..') || isAbsolute(fromRoot) ? file : fromRoot.split(sep).join('/');
  };
}
