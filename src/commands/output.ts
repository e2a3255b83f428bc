/**
 * Writes a plan in the chosen format to stdout (and `--out FILE` as JSON), and
 * prints policy diagnostics when the policies are invalid. Stdout carries only
 * plans and reports; logs go to stderr.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { repositoryPath } from '../github-commands.js';
import { formatDiagnostic, formatDiagnostics, formatMarkdown } from '../policy/format.js';
import type { PolicyLoadResult } from '../policy/types.js';
import { InvalidPoliciesError, loadDesired, type LoadedPolicies } from '../reconcile/prepare.js';
import { encodePlan, encodePlanBody, renderGithub, renderJson, renderMarkdown, renderText, type Plan, type PlanDocument } from '../plan/index.js';

export const PLAN_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

/** Colour only on a terminal, and never with NO_COLOR (https://no-color.org). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

/** Policy paths as GitHub knows them, from the repository root (policies in a subdirectory). */
function githubPath(): (file: string) => string {
  return repositoryPath(process.env.GITHUB_WORKSPACE, process.cwd());
}

/** The plan in `format`, and saved to `out`; a text plan alone is shown from the body (no digest is computed for it). */
export async function writePlan(plan: Plan, format: PlanFormat, out?: string): Promise<void> {
  if (format === 'text' && !out) {
    process.stdout.write(renderText(encodePlanBody(plan), { color: useColor() }));
    return;
  }
  await writeDocument(encodePlan(plan), format, out);
}

/** A plan document (a saved plan, for `show`) in `format`, and saved to `out`. */
export async function writeDocument(document: PlanDocument, format: PlanFormat, out?: string): Promise<void> {
  if (out) {
    // `--out .rampart/plan.json` (the git-ignored folder the README suggests) works in a fresh clone too.
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, renderJson(document), { mode: 0o644 });
  }
  if (format === 'json') process.stdout.write(renderJson(document));
  else if (format === 'markdown') process.stdout.write(renderMarkdown(document));
  else if (format === 'github') {
    const { annotations, summary } = renderGithub(document, { path: githubPath() });
    process.stdout.write(annotations);
    if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, summary);
    else process.stdout.write(summary);
  } else process.stdout.write(renderText(document, { color: useColor() }));
}

/** Invalid policies in `plan`/`apply`: the same report `validate` prints. */
export async function writeDiagnostics(result: PolicyLoadResult, format: PlanFormat): Promise<void> {
  const diagnosticFormat = format === 'markdown' ? 'text' : format;
  const report = { files: result.files, diagnostics: result.diagnostics };
  process.stdout.write(formatDiagnostics(report, diagnosticFormat, { path: githubPath() }));
  if (format === 'github' && process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, formatMarkdown(report));
}

/**
 * Warnings of valid policies (host bits, an empty file, an expired entry), as
 * `validate` prints them; on stderr, so stdout stays the plan in every format.
 */
export function writeWarnings(result: PolicyLoadResult, stream: NodeJS.WritableStream = process.stderr): void {
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) stream.write(warnings.map((d) => `${formatDiagnostic(d)}\n`).join(''));
}

/**
 * Loads the policies before anything touches the network, so an invalid file is
 * reported (in the command's format) without a token, and its warnings are
 * shown. Undefined when invalid.
 */
export async function loadOrReport(policies: string, format: PlanFormat, allowEmpty = false): Promise<LoadedPolicies | undefined> {
  try {
    const loaded = await loadDesired({ policies, allowEmpty });
    writeWarnings(loaded);
    return loaded;
  } catch (error) {
    if (!(error instanceof InvalidPoliciesError)) throw error;
    await writeDiagnostics(error.result, format);
    return undefined;
  }
}
