/**
 * The impact (`--impact`) as people read it: one line per change block, the
 * plan's closing line, and the markdown comment's "Impact" table.
 */
import type { PlanBody, PlanImpact } from '../types.js';
import type { ChangeImpact, ImpactPath, ImpactEffect } from '../change-document.js';
import type { ChangeBlock } from './blocks.js';
import { escapeMarkdown } from './header.js';

/** The paths a line names. */
const PATHS_SHOWN = 3;

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

/** What one change (or block) would have done, without the window. */
export function impactPhrase(impact: ChangeImpact, complete = true): string {
  if (impact.effect === 'not_evaluable') return `not evaluable: ${impact.reason ?? 'hits cannot show it'}`;
  if (impact.effect === 'none') return `no effect on traffic: ${impact.reason ?? 'it decides nothing about requests'}`;
  // Attacks from a source are counted exactly (the rest of its traffic goes unrecorded); other floors read "at least".
  const fromSource = impact.effect === 'attack_hits_from';
  const floor = !complete || (impact.lower_bound && !fromSource) ? 'at least ' : '';
  const what = VERBS[impact.effect](impact.requests).replace(/(\d[\d,]*)/, `${floor}$1`);
  const clean = impact.lower_bound ? 'clean traffic is not recorded' : undefined;
  if (impact.requests === 0) return clean ? `${what} (${clean})` : what;
  const top = impact.paths.slice(0, PATHS_SHOWN).map((p) => `${p.path} ${p.requests}`).join(', ');
  const spread = `${count(impact.ips, 'IP')} on ${count(impact.path_count, 'path')}`;
  // "came from it" names the source already.
  return fromSource
    ? `${what}${clean ? ` (${clean})` : ''}: ${spread} (top: ${top})`
    : `${what} from ${spread} (top: ${top}${clean ? `; ${clean}` : ''})`;
}

/** `impact (7 d): …`, for a block's line. */
export function impactLine(impact: ChangeImpact, plan: PlanImpact): string {
  return `impact (${windowLabel(plan.window_seconds)}${plan.unverified !== undefined ? ', not verified' : ''}): ${impactPhrase(impact, plan.complete)}`;
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

/** `Impact over 7 d: 18,412 hits read (2 listings); 3 changes not evaluable (why: see each).` */
export function impactSummaryLine(plan: PlanBody): string | undefined {
  const impact = plan.impact;
  if (!impact) return undefined;
  const notEvaluable = impact.not_evaluable > 0 ? `; ${count(impact.not_evaluable, 'change')} not evaluable (why: see each)` : '';
  const incomplete = impact.complete ? '' : ` Incomplete: ${impact.reason ?? 'a listing failed'}; the counts are at least what they say.`;
  return `${unverifiedPhrase(impact)}Impact over ${windowLabel(impact.window_seconds)}: ${count(impact.hits_read, 'hit')} read (${count(impact.listings, 'listing')})${notEvaluable}.${incomplete}${limitPhrase(impact)}`;
}

/** A saved plan's impact that does not match its checksum (saved-plan.ts): said before anything else of it. */
function unverifiedPhrase(impact: PlanImpact): string {
  return impact.unverified === undefined ? '' : `Impact not verified: ${impact.unverified}; its figures are not evidence of what the service saw. `;
}

/** What `--impact-limit` found; an incomplete impact passes nothing (plan/impact-guard.ts). */
function limitPhrase(impact: PlanImpact): string {
  if (impact.limit === undefined) return '';
  const limit = `the limit of ${count(impact.limit, 'request')} newly blocked or no longer blocked per change`;
  if (impact.over_limit) return ` ${count(impact.over_limit, 'change')} past ${limit}.`;
  if (!impact.complete) return ` Unsafe: an incomplete impact cannot show a plan within ${limit}; apply refuses it without --force.`;
  return ` Within ${limit}.`;
}

/** Rows of the markdown "Impact" table shown before the changes are cut: the evaluable effects first, the largest first. */
const TABLE_ROWS = 50;

/** The markdown comment's "Impact" section: a table of the blocks with an effect, then the closing line. */
export function impactTable(plan: PlanBody, blocks: readonly ChangeBlock[]): string {
  if (!plan.impact) return '';
  const rows = blocks.filter((b) => b.impact !== undefined && b.impact.effect !== 'none');
  const ranked = [...rows].sort((a, b) => Number((b.impact as ChangeImpact).evaluable) - Number((a.impact as ChangeImpact).evaluable)
    || (b.impact as ChangeImpact).requests - (a.impact as ChangeImpact).requests);
  const shown = ranked.slice(0, TABLE_ROWS);
  const cell = (text: string) => escapeMarkdown(text).replace(/\|/g, '\\|');
  const out = [`#### Impact (${windowLabel(plan.impact.window_seconds)})`, ''];
  if (plan.impact.unverified !== undefined) out.push(`> [!CAUTION]\n> ${cell(unverifiedPhrase(plan.impact).trim())}`, '');
  if (shown.length > 0) {
    out.push('| change | effect | requests | IPs | top paths |', '|---|---|--:|--:|---|');
    for (const b of shown) {
      const i = b.impact as ChangeImpact;
      const floor = !plan.impact.complete || i.lower_bound ? '≥ ' : '';
      out.push(`| ${cell(`${b.sign} ${b.title}`)} | ${cell(i.evaluable ? i.effect : `not evaluable: ${i.reason ?? ''}`)} | ${i.evaluable ? `${floor}${i.requests}` : '–'} | ${i.evaluable ? i.ips : '–'} | ${cell(i.paths.slice(0, PATHS_SHOWN).map((p) => `${p.path} ${p.requests}`).join(', '))} |`);
    }
    if (ranked.length > shown.length) out.push('', `… and ${ranked.length - shown.length} more rows, in the job summary and the saved plan.`);
    out.push('');
  }
  out.push(cell(impactSummaryLine(plan) ?? ''), '', '');
  return out.join('\n');
}
