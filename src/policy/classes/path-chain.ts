/**
 * `[path, i]` conditions the service would never match as their author
 * likely meant: the last segment of a path is `action_name`, not `[path, n]`,
 * so `[path, 0] equal login` alone matches `/login/x` but not `/login`. Said
 * when a chain of `[path, i]` equals is followed by neither `[path, n]`,
 * `action_name` nor `action_ext`.
 *
 * A directory written that way draws the warning on every such rule (a third
 * of the bench's, 33,334 at 50k rules), and each held 200 bytes of text and
 * the pieces it was joined from (12 MB at 50k rules, for as long as the
 * policies live). The warning holds the segments and writes its text when
 * read (issue 49).
 */
import type { Diagnostic } from '../../diagnostic.js';
import type { Condition } from '../../model/rule.js';
import type { DocumentContext } from '../context.js';
import type { ConditionSpec } from '../document.js';
import type { Path } from '../source-map.js';

const CODE = 'path-chain';

export function warnOnLoosePathChain(specs: readonly ConditionSpec[], conditions: readonly Condition[], path: Path, report: DocumentContext['report']): void {
  // Most rules have no `[path, i]` equal: found out in one loop that makes nothing, as every rule of a load is asked.
  let last = -1;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as Condition;
    if (c.point[0] === 'path' && c.type === 'equal') last = Math.max(last, Number(c.point[1]));
  }
  if (last < 0) return;
  const equals = conditions.filter((c) => c.point[0] === 'path' && c.type === 'equal').map((c) => Number(c.point[1]));
  const closed = conditions.some((c) => (c.point[0] === 'path' && Number(c.point[1]) === last + 1) || c.point[0] === 'action_name' || c.point[0] === 'action_ext');
  if (closed) return;
  const index = specs.findIndex((spec) => spec.url === undefined && Array.isArray(spec.point) && spec.point[0] === 'path' && Number(spec.point[1]) === last);
  if (index < 0) return;
  const segments = [...equals].sort((a, b) => a - b).map((i) => conditions.find((c) => c.point[0] === 'path' && Number(c.point[1]) === i)?.value ?? '*');
  const { line, col } = report.position([...path, index]);
  report.add(new PathChainWarning(report.file, line, col, last, segments.length === 1 ? segments[0] as string : segments));
}

/** The warning, its message written when read; JSON gets the plain form. */
class PathChainWarning implements Diagnostic {
  readonly severity = 'warning';
  readonly code = CODE;
  readonly #last: number;
  /** One segment as itself: most chains are one condition long. */
  readonly #segments: string | readonly string[];

  constructor(readonly file: string, readonly line: number, readonly col: number, last: number, segments: string | readonly string[]) {
    this.#last = last;
    this.#segments = segments;
  }

  get message(): string {
    const segments = typeof this.#segments === 'string' ? [this.#segments] : this.#segments;
    const url = `/${segments.join('/')}`;
    return `[path, ${this.#last}] equal ${JSON.stringify(segments[segments.length - 1])} does not match ${url}: the service reads the last segment as action_name. ` +
      `For ${url} itself write url: ${url}; for everything under it, url: ${url}/** (which says so)`;
  }

  toJSON(): Diagnostic {
    const { file, line, col, severity, code, message } = this;
    return { file, line, col, severity, code, message };
  }
}
