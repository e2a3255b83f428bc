/**
 * A problem found in the user's input, at a file:line:col. A root value: the
 * policy pipeline reports them, the errors carry them, the commands print them.
 */

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  /** Display path (relative to the working directory), e.g. `policies/shop.yaml`. */
  readonly file: string;
  /** 1-based; 0 when the problem is about the file as a whole. */
  readonly line: number;
  readonly col: number;
  readonly severity: Severity;
  /** Stable identifier, e.g. `unknown-key`; see docs/policy-reference.md. */
  readonly code: string;
  readonly message: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
