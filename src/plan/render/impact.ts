/**
 * The impact (`--impact`) as people read it: one line per change block, the
 * plan's closing line, and the markdown comment's "Impact" table. Paths and
 * the reasons a listing failed come from outside (recorded requests, the
 * service's errors): each goes through its output's function of
 * outside-text.ts, which the caller names (`Escape`).
 */
import { escapeMarkdown, markdownText } from '../../outside-text.js';
import type { PlanBody, PlanImpact } from '../types.js';
import type { ChangeImpact, ImpactPath, ImpactEffect } from '../change-document.js';
import type { ChangeBlock } from './change-block.js';

/** The paths a line names. */
const PATHS_SHOWN = 3;

/** An output's rule for outside text (outside-text.ts `terminalText`, `codeText`, `markdownText`), cut to `max`. */
export type Escape = (text: string, max?: number) => string;

/** Characters a recorded path takes in a line, and in a table cell; a reason, in either. */
const PATH_MAX = 120;
const CELL_PATH_MAX = 80;
const REASON_MAX = 400;

/** `7 d`, `36 h`: the window as the lines name it. */
export function windowLabel(seconds: number): string {
  return seconds % 86_400 === 0 ? `${seconds / 86_400} d` : seconds % 3_600 === 0 ? `${seconds / 3_600} h` : `${Math.round(seconds / 60)} min`;
}

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const VERBS: Readonly<Record<Exclude<ImpactEffect, 'none' | 'not_evaluable'>, (n: number) => string>> = {
  newly_blocked: (n) => `would newly block ${count(n, 'request')}`,
  no_longer_blocked: (n) => `would stop blocking ${count(n, 'attack request')}`,
  newly_detected: (n) => `would newly detect ${count(n, 'request')} as attacks`,
  no_longer_detected: (n) => `would stop detecting ${count(n, 'flagged request')}`,
  attack_hits_from: (n) => `${count(n, 'attack request')} came from it`,
};

/** What one change (or block) would have done, without the window; paths and reasons through `escape`. */
export function impactPhrase(impact: ChangeImpact, complete: boolean, escape: Escape): string {
  if (impact.effect === 'not_evaluable') return `not evaluable: ${impact.reason !== undefined ? escape(impact.reason, REASON_MAX) : 'hits cannot show it'}`;
  if (impact.effect === 'none') return `no effect on traffic: ${impact.reason !== undefined ? escape(impact.reason, REASON_MAX) : 'it decides nothing about requests'}`;
  // Attacks from a source are counted exactly (the rest of its traffic goes unrecorded); other floors read "at least".
  const fromSource = impact.effect === 'attack_hits_from';
  const floor = !complete || (impact.lower_bound && !fromSource) ? 'at least ' : '';
  const what = VERBS[impact.effect](impact.requests).replace(/(\d[\d,]*)/, `${floor}$1`);
  const clean = impact.lower_bound ? 'clean traffic is not recorded' : undefined;
  if (impact.requests === 0) return clean ? `${what} (${clean})` : what;
  const top = impact.paths.slice(0, PATHS_SHOWN).map((p) => `${escape(p.path, PATH_MAX)} ${p.requests}`).join(', ');
  const spread = `${count(impact.ips, 'IP')} on ${count(impact.path_count, 'path')}`;
  // "came from it" names the source already.
  return fromSource
    ? `${what}${clean ? ` (${clean})` : ''}: ${spread} (top: ${top})`
    : `${what} from ${spread} (top: ${top}${clean ? `; ${clean}` : ''})`;
}

/** `impact (7 d): …`, for a block's line. */
export function impactLine(impact: ChangeImpact, plan: PlanImpact, escape: Escape): string {
  return `impact (${windowLabel(plan.window_seconds)}${plan.unverified !== undefined ? ', not verified' : ''}): ${impactPhrase(impact, plan.complete, escape)}`;
}

/**
 * One impact for a block of several changes (IP values sharing a list and
 * attributes): requests add up, as values of one type name disjoint sources
 * (a request has one address, one country); a subnet inside another of the
 * same block would count its requests twice.
 */
export function combinedImpact(impacts: readonly (ChangeImpact | undefined)[]): ChangeImpact | undefined {
  const present = impacts.filter((i): i is ChangeImpact => i !== undefined);
  const [first] = present;
  if (!first || present.length === 1) return first;
  const evaluated = present.filter((i) => i.effect !== 'none' && i.effect !== 'not_evaluable');
  const lead = evaluated[0] ?? first;
  const paths = new Map<string, number>();
  for (const impact of evaluated) for (const p of impact.paths) paths.set(p.path, (paths.get(p.path) ?? 0) + p.requests);
  const sorted: ImpactPath[] = [...paths].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5).map(([path, requests]) => ({ path, requests }));
  return {
    ...lead,
    requests: evaluated.reduce((n, i) => n + i.requests, 0),
    ips: evaluated.reduce((n, i) => n + i.ips, 0),
    paths: sorted,
    path_count: Math.max(paths.size, ...evaluated.map((i) => i.path_count)),
    sample_request_ids: evaluated.flatMap((i) => i.sample_request_ids).slice(0, 3),
  };
}

/**
 * `Impact over 7 d: 18,412 hits read (2 listings); 3 changes not evaluable
 * (why: see each).` Its own words need no escaping in any output; what came
 * from outside goes through `escape`.
 */
export function impactSummaryLine(plan: PlanBody, escape: Escape): string | undefined {
  const impact = plan.impact;
  if (!impact) return undefined;
  const notEvaluable = impact.not_evaluable > 0 ? `; ${count(impact.not_evaluable, 'change')} not evaluable (why: see each)` : '';
  const incomplete = impact.complete ? '' : ` Incomplete: ${impact.reason !== undefined ? escape(impact.reason, REASON_MAX) : 'a listing failed'}; the counts are at least what they say.`;
  return `${unverifiedPhrase(impact, escape)}Impact over ${windowLabel(impact.window_seconds)}: ${count(impact.hits_read, 'hit')} read (${count(impact.listings, 'listing')})${notEvaluable}.${incomplete}${totalPhrase(impact)}${agreementPhrase(impact)}${limitPhrase(impact)}`;
}

/**
 * The whole plan beside each change's own line: ` The whole plan, for what
 * filtering modes and IP lists decide: would newly block 12 requests from 3
 * IPs.`
 */
function totalPhrase(impact: PlanImpact): string {
  const total = impact.total;
  if (!total) return '';
  const part = (what: string, figure: { readonly requests: number; readonly ips: number }) =>
    `${what} ${count(figure.requests, 'request')} from ${count(figure.ips, 'IP')}`;
  const parts = [
    ...(total.newly_blocked.requests > 0 ? [part('newly block', total.newly_blocked)] : []),
    ...(total.no_longer_blocked.requests > 0 ? [part('stop blocking', total.no_longer_blocked)] : []),
  ];
  const does = parts.length > 0 ? `would ${parts.join(', and ')}` : 'would change the verdict of no recorded request';
  return ` The whole plan, for what filtering modes and IP lists decide: ${does}.`;
}

/**
 * How far the model agrees with what the service recorded since the
 * configuration last changed: ` The model agrees with 97.8% of 18,412
 * recorded verdicts (12 disagree: see --format json).`
 */
function agreementPhrase(impact: PlanImpact): string {
  const agreement = impact.agreement;
  if (!agreement || agreement.checked === 0) return '';
  const share = `${(Math.floor((agreement.agree / agreement.checked) * 1000) / 10).toFixed(1)}%`;
  const disagree = agreement.checked - agreement.agree;
  const detail = disagree === 0 ? '' : ` (${disagree.toLocaleString('en-US')} ${disagree === 1 ? 'disagrees' : 'disagree'}: see --format json)`;
  const unreliable = impact.reliable === false ? ': too few to rely on its counts' : '';
  return ` The model agrees with ${share} of ${count(agreement.checked, 'verdict')} the service recorded since the configuration last changed${detail}${unreliable}.`;
}

/** A saved plan's impact that does not match its checksum (saved-plan.ts): said before anything else of it. */
function unverifiedPhrase(impact: PlanImpact, escape: Escape): string {
  return impact.unverified === undefined ? '' : `Impact not verified: ${escape(impact.unverified, REASON_MAX)}; its figures are not evidence of what the service saw. `;
}

/** What `--impact-limit` found; an incomplete impact passes nothing (plan/impact-guard.ts). */
function limitPhrase(impact: PlanImpact): string {
  if (impact.limit === undefined) return '';
  const limit = `the limit of ${count(impact.limit, 'request')} newly blocked or no longer blocked per change`;
  if (impact.over_limit) return ` ${count(impact.over_limit, 'change')} past ${limit}.`;
  if (!impact.complete) return ` Unsafe: an incomplete impact cannot show a plan within ${limit}; apply refuses it without --force.`;
  if (impact.reliable === false) return ` Unsafe: an unreliable impact cannot show a plan within ${limit}; apply refuses it without --force.`;
  return ` Within ${limit}.`;
}

/** Rows of the markdown "Impact" table shown before the changes are cut: the evaluable effects first, the largest first. */
const TABLE_ROWS = 50;

/** The markdown comment's "Impact" section, and how many of its rows it shows. */
export interface ImpactSection {
  readonly text: string;
  readonly shown: number;
  readonly total: number;
}

/**
 * The markdown comment's "Impact" section: a table of the blocks with an
 * effect, then the closing line; rows past TABLE_ROWS, or past `budget`
 * characters (a comment cut to its limit), are counted, not shown.
 */
export function impactSection(plan: PlanBody, blocks: readonly ChangeBlock[], budget = Number.POSITIVE_INFINITY): ImpactSection {
  if (!plan.impact) return { text: '', shown: 0, total: 0 };
  const rows = blocks.filter((b) => b.impact !== undefined && b.impact.effect !== 'none');
  const ranked = [...rows].sort((a, b) => Number((b.impact as ChangeImpact).evaluable) - Number((a.impact as ChangeImpact).evaluable)
    || (b.impact as ChangeImpact).requests - (a.impact as ChangeImpact).requests);
  const head = [`#### Impact (${windowLabel(plan.impact.window_seconds)})`, ''];
  if (plan.impact.unverified !== undefined) head.push(`> [!CAUTION]\n> ${unverifiedPhrase(plan.impact, markdownText).trim()}`, '');
  // A blank line after the closing line, and one more before what follows.
  const tail = [impactSummaryLine(plan, markdownText) ?? '', '', '', ''];
  const more = (n: number) => `… and ${n} more rows, in the job summary and the saved plan.`;
  const lines = ranked.length > 0 ? ['| change | effect | requests | IPs | top paths |', '|---|---|--:|--:|---|'] : [];
  // What the section costs without rows: its head, its tail, and the line that counts the rows left out.
  let room = budget - [...head, ...lines, ...tail].join('\n').length - more(ranked.length).length - 4;
  let shown = 0;
  for (const b of ranked.slice(0, TABLE_ROWS)) {
    const row = tableRow(b, plan.impact);
    if (row.length + 1 > room) break;
    lines.push(row);
    room -= row.length + 1;
    shown++;
  }
  if (shown === 0 && ranked.length > 0) lines.length = 0;
  if (ranked.length > shown) lines.push('', more(ranked.length - shown));
  if (ranked.length > 0) lines.push('');
  return { text: [...head, ...lines, ...tail].join('\n'), shown, total: ranked.length };
}

/** The section at its full size (at most TABLE_ROWS rows). */
export function impactTable(plan: PlanBody, blocks: readonly ChangeBlock[]): string {
  return impactSection(plan, blocks).text;
}

function tableRow(b: ChangeBlock, impact: PlanImpact): string {
  const i = b.impact as ChangeImpact;
  const floor = !impact.complete || i.lower_bound ? '≥ ' : '';
  const effect = i.evaluable ? i.effect : `not evaluable: ${markdownText(i.reason ?? '', REASON_MAX)}`;
  const paths = i.paths.slice(0, PATHS_SHOWN).map((p) => `${markdownText(p.path, CELL_PATH_MAX)} ${p.requests}`).join(', ');
  return `| ${escapeMarkdown(`${b.sign} ${b.title}`)} | ${effect} | ${i.evaluable ? `${floor}${i.requests}` : '–'} | ${i.evaluable ? i.ips : '–'} | ${paths} |`;
}
