/**
 * A unified diff of two texts, line by line, for `fmt --check --diff`: what
 * `fmt` would change, as `git diff` shows it (`---`/`+++` headers, `@@`
 * hunks with three lines of context). The common head and tail are set
 * aside first; what fmt changed in between is small enough for the plain
 * quadratic longest-common-subsequence table. Pure.
 */

const CONTEXT = 3;

type Edit = { readonly kind: ' ' | '-' | '+'; readonly line: string };

export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const edits = lineEdits(splitLines(before), splitLines(after));
  const hunks = hunksOf(edits);
  return [`--- a/${path}`, `+++ b/${path}`, ...hunks].join('\n') + '\n';
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The table's cells past which the middle is shown as replaced whole rather
 * than aligned (a 1 MiB policy file rewritten throughout would need gigabytes).
 */
const MAX_CELLS = 4_000_000;

/**
 * The edits that turn `a` into `b`: the common head and tail kept as they
 * are (fmt's changes are local, so what is left is small), the middle aligned
 * by its longest common subsequence.
 */
function lineEdits(a: readonly string[], b: readonly string[]): Edit[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const same = (lines: readonly string[]): Edit[] => lines.map((line) => ({ kind: ' ', line }));
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  const middle = (middleA.length + 1) * (middleB.length + 1) > MAX_CELLS
    ? [...middleA.map((line): Edit => ({ kind: '-', line })), ...middleB.map((line): Edit => ({ kind: '+', line }))]
    : alignedEdits(middleA, middleB);
  return [...same(a.slice(0, head)), ...middle, ...same(a.slice(a.length - tail))];
}

/** The edits between two short texts, by the quadratic longest-common-subsequence table. */
function alignedEdits(a: readonly string[], b: readonly string[]): Edit[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] = a[i] === b[j] ? (table[(i + 1) * cols + j + 1] as number) + 1 : Math.max(table[(i + 1) * cols + j] as number, table[i * cols + j + 1] as number);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ kind: ' ', line: a[i] as string });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || (table[(i + 1) * cols + j] as number) >= (table[i * cols + j + 1] as number))) {
      // Removed lines before added ones, as git shows them.
      edits.push({ kind: '-', line: a[i] as string });
      i++;
    } else {
      edits.push({ kind: '+', line: b[j] as string });
      j++;
    }
  }
  return edits;
}

/** `@@ -l,n +l,n @@` hunks: each change with up to three unchanged lines around it, nearby changes merged. */
function hunksOf(edits: readonly Edit[]): string[] {
  const changed = edits.flatMap((edit, index) => (edit.kind === ' ' ? [] : [index]));
  const out: string[] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (end + 1 < changed.length && (changed[end + 1] as number) - (changed[end] as number) <= 2 * CONTEXT) end++;
    const from = Math.max(0, (changed[start] as number) - CONTEXT);
    const to = Math.min(edits.length - 1, (changed[end] as number) + CONTEXT);
    const slice = edits.slice(from, to + 1);
    const before = edits.slice(0, from);
    const oldStart = before.filter((e) => e.kind !== '+').length + 1;
    const newStart = before.filter((e) => e.kind !== '-').length + 1;
    const oldCount = slice.filter((e) => e.kind !== '+').length;
    const newCount = slice.filter((e) => e.kind !== '-').length;
    out.push(`@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`);
    out.push(...slice.map((e) => `${e.kind}${e.line}`));
    start = end + 1;
  }
  return out;
}
