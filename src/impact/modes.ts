/**
 * What a filtering-mode change would have done to the requests it governs.
 *
 * A request takes the most specific `mode` rule that matches it (the
 * service's rule branches): a rule whose conditions include another's is more
 * specific; between others, more conditions, then exact values over
 * case-insensitive ones over regexes. A change governs a request when its rule
 * is that rule before or after the plan. What each mode blocks, for an attack
 * (every hit is one): `block` blocks it; `safe_blocking` only from a
 * graylisted source; `monitoring` and `off` let it through. A denylisted
 * source is blocked in every mode but `off`; an allowlisted one never is.
 * The node's own mode (`default`) is not known to the API.
 */
import { IP_LISTS, type IpListName } from '../model/ip.js';
import type { Condition, Rule } from '../model/rule.js';
import type { Change } from '../model/change.js';
import { scopeMatches, unrecordedCondition } from '../model/scope-match.js';
import { objectsAfter } from './after-plan.js';
import { changesOf } from './classes/index.js';
import type { LiveState } from '../model/state.js';
import type { Impact } from '../plan/model.js';
import type { ClientRequests, RequestPlace, RequestRef } from './client-requests.js';
import { SourceList } from './sources.js';
import type { StopCheck } from './stop-check.js';
import { noEffect, notEvaluable, tally } from './tally.js';

/** How far the model's verdicts for the live configuration match what the service recorded. */
export interface ModelAgreement {
  readonly checked: number;
  readonly agree: number;
  /** Request ids of some that disagree. */
  readonly samples: readonly string[];
}

interface ModeRule {
  readonly rule: Rule;
  readonly mode: string;
  readonly score: readonly number[];
}

/** How much each mode blocks, least first. */
const STRICTNESS: Readonly<Record<string, number>> = { off: 0, monitoring: 1, safe_blocking: 2, block: 3 };

/** The node's own mode: not known to the API, so nothing can be said of what it blocks. */
const NODE_MODE = 'default';

export class FilteringModes {
  private readonly before = new Map<number, ModeRule[]>();
  private readonly lists = new Map<number, Readonly<Record<IpListName, SourceList>>>();

  constructor(private readonly live: LiveState, private readonly stop: StopCheck) {}

  /**
   * The change's own effect: both sides from the one model, the live
   * configuration (its mode rules and IP lists) before, and the same with
   * only this change made after. What the service recorded on each hit is
   * not a side: it is what the model is checked against. A deny entry the
   * same plan adds counts under the entry, not here.
   */
  impact(transition: { readonly before?: Rule; readonly after?: Rule }, requests: ClientRequests, field: string): Impact {
    const modeOf = (rule: Rule | undefined) => (rule ? String((rule.fields as Readonly<Record<string, unknown>>)[field] ?? NODE_MODE) : undefined);
    const from = modeOf(transition.before);
    const to = modeOf(transition.after);
    if (from === NODE_MODE || to === NODE_MODE) return notEvaluable('the node\'s own mode (default) is not known to the API, so what it blocks cannot be told');
    const rule = (transition.after ?? transition.before) as Rule;
    const beforeRules = this.liveRules(rule.client);
    const afterRules = withTransition(beforeRules, transition);
    const lists = this.liveLists(rule.client);
    const newly: RequestRef[] = [];
    const released: RequestRef[] = [];
    // The rule that governs a request depends only on where it went: asked once per place.
    for (const place of candidatesOf(transition, requests)) {
      this.stop.step();
      const was = mostSpecific(beforeRules, place);
      const will = mostSpecific(afterRules, place);
      const governed = (transition.before !== undefined && was?.rule === transition.before) || (transition.after !== undefined && will?.rule === transition.after);
      if (!governed) continue;
      // Indexed: a mode change may govern every request, and a `for...of` made garbage for each (tally.ts).
      const at = requests.at(place);
      for (let i = 0; i < at.length; i++) {
        const request = at[i] as RequestRef;
        this.stop.step();
        // A side no mode rule governs is the node's own mode, which the API does not show: what the service recorded
        // there is the only evidence of it (a first mode rule, or the last one deleted).
        const blocked = was === undefined ? requests.blocked(request) : blocksUnder(was.mode, request, lists, requests);
        const blocks = will === undefined ? requests.blocked(request) : blocksUnder(will.mode, request, lists, requests);
        if (blocked === undefined || blocks === undefined) continue;
        if (!blocked && blocks) newly.push(request);
        if (blocked && !blocks) released.push(request);
      }
    }
    // The change's own direction first; the other only when the requests went that way alone (a rule under a stricter one).
    const stricter = to !== undefined && (from === undefined || (STRICTNESS[to] ?? 0) >= (STRICTNESS[from] ?? 0));
    const [first, second] = stricter ? [newly, released] : [released, newly];
    const blocking = stricter === (first.length > 0 || second.length === 0);
    if (newly.length === 0 && released.length === 0 && from === to) return noEffect('the mode stays as it is');
    return tally(blocking ? 'newly_blocked' : 'no_longer_blocked', blocking ? newly : released, requests);
  }

  /**
   * The model checking itself: for every request recorded after `since` that
   * a live mode rule governs, whether the model's verdict for the live
   * configuration (blocked or not) is the one the service recorded. Requests
   * in the node's own mode, or whose scope hits cannot answer, are not checked.
   */
  agreement(client: number, requests: ClientRequests, since: number, samples: number): ModelAgreement {
    const rules = this.liveRules(client);
    const lists = this.liveLists(client);
    let checked = 0;
    let agree = 0;
    const disagreeing: string[] = [];
    const governing = byPlace(rules);
    for (let request = 0; request < requests.size; request++) {
      this.stop.step();
      if (requests.time(request) <= since) continue;
      const rule = governing(requests.place(request));
      const blocks = rule === undefined ? undefined : blocksUnder(rule.mode, request, lists, requests);
      if (blocks === undefined) continue;
      checked++;
      if (blocks === requests.blocked(request)) agree++;
      else if (disagreeing.length < samples) disagreeing.push(requests.id(request));
    }
    return { checked, agree, samples: disagreeing };
  }

  /**
   * The whole plan against the live configuration, for what filtering modes
   * and IP lists decide: each recorded request's verdict under the live mode
   * rules and lists, and under both as the whole plan leaves them. A side no
   * mode rule governs keeps what the service recorded (the node's own mode).
   */
  total(client: number, requests: ClientRequests, changes: readonly Change[]): { readonly newly: RequestRef[]; readonly released: RequestRef[] } {
    const beforeRules = this.liveRules(client);
    const isMode = (rule: Rule) => rule.client === client && rule.kind === 'mode';
    const afterRules = objectsAfter('rule', this.live.rules.filter(isMode), changesOf(changes, 'rule').filter((change) => isMode(change.rule)))
      .filter((rule) => unrecordedCondition(rule.conditions) === undefined).map(modeRule);
    const beforeLists = this.liveLists(client);
    const entries = objectsAfter('ip', this.live.ipEntries.filter((e) => e.client === client), changesOf(changes, 'ip').filter((change) => change.client === client));
    const afterLists = Object.fromEntries(IP_LISTS.map((list) => [list, new SourceList(entries.filter((e) => e.list === list))])) as Record<IpListName, SourceList>;
    const newly: RequestRef[] = [];
    const released: RequestRef[] = [];
    const wasGoverning = byPlace(beforeRules);
    const willGoverning = byPlace(afterRules);
    for (let request = 0; request < requests.size; request++) {
      this.stop.step();
      const was = wasGoverning(requests.place(request));
      const will = willGoverning(requests.place(request));
      const blocked = (was ? blocksUnder(was.mode, request, beforeLists, requests) : undefined) ?? requests.blocked(request);
      const blocks = (will ? blocksUnder(will.mode, request, afterLists, requests) : undefined) ?? requests.blocked(request);
      if (!blocked && blocks) newly.push(request);
      if (blocked && !blocks) released.push(request);
    }
    return { newly, released };
  }

  /** The client's live mode rules, with what ranks them; rules whose scope hits cannot answer are left out. */
  private liveRules(client: number): ModeRule[] {
    let rules = this.before.get(client);
    if (rules) return rules;
    rules = this.live.rules.filter((rule) => rule.client === client && rule.kind === 'mode' && unrecordedCondition(rule.conditions) === undefined).map(modeRule);
    this.before.set(client, rules);
    return rules;
  }

  /** The client's live IP lists: a change's own effect is on top of the live configuration. */
  private liveLists(client: number): Readonly<Record<IpListName, SourceList>> {
    let lists = this.lists.get(client);
    if (lists) return lists;
    const entries = this.live.ipEntries.filter((e) => e.client === client);
    lists = Object.fromEntries(IP_LISTS.map((list) => [list, new SourceList(entries.filter((e) => e.list === list))])) as Record<IpListName, SourceList>;
    this.lists.set(client, lists);
    return lists;
  }
}

function modeRule(rule: Rule): ModeRule {
  return { rule, mode: String((rule.fields as Readonly<Record<string, unknown>>).mode ?? NODE_MODE), score: specificity(rule.conditions) };
}

/** The live mode rules with one change made: its live rule gone, its new one in. */
function withTransition(live: readonly ModeRule[], transition: { readonly before?: Rule; readonly after?: Rule }): ModeRule[] {
  const kept = live.filter((rule) => rule.rule !== transition.before);
  const after = transition.after;
  return after && unrecordedCondition(after.conditions) === undefined ? [...kept, modeRule(after)] : kept;
}

/**
 * The places either side's scope selects, each once: those of the rule as it
 * is, then those of the rule as it will be that the first did not select.
 */
function* candidatesOf(transition: { readonly before?: Rule; readonly after?: Rule }, requests: ClientRequests): Generator<RequestPlace> {
  const { before, after } = transition;
  if (before) for (const place of requests.candidates(before.conditions)) if (scopeMatches(before.conditions, place)) yield place;
  if (!after) return;
  for (const place of requests.candidates(after.conditions)) {
    if (scopeMatches(after.conditions, place) && !(before && scopeMatches(before.conditions, place))) yield place;
  }
}

/** The rule that governs each place, found once per place (a place's requests share their scope's answers). */
function byPlace(rules: readonly ModeRule[]): (place: RequestPlace) => ModeRule | undefined {
  const found: (ModeRule | null | undefined)[] = [];
  return (place) => {
    let rule = found[place.index];
    if (rule === undefined) found[place.index] = rule = mostSpecific(rules, place) ?? null;
    return rule ?? undefined;
  };
}

/** Whether an attack from this request's source is blocked under `mode`; undefined for the node's own mode. */
function blocksUnder(mode: string, request: RequestRef, lists: Readonly<Record<IpListName, SourceList>>, requests: ClientRequests): boolean | undefined {
  if (lists.white.holds(request, requests)) return false;
  if (mode === NODE_MODE) return undefined;
  if (lists.black.holds(request, requests)) return mode !== 'off';
  if (mode === 'block') return true;
  if (mode === 'safe_blocking') return lists.gray.holds(request, requests);
  return false;
}

function mostSpecific(rules: readonly ModeRule[], place: RequestPlace): ModeRule | undefined {
  let best: ModeRule | undefined;
  for (const rule of rules) {
    if (!scopeMatches(rule.rule.conditions, place)) continue;
    if (!best || moreSpecific(rule, best)) best = rule;
  }
  return best;
}

/**
 * A rule whose conditions include another's has more of them, so ranking by
 * the count first puts it first; between others, exact values, then
 * case-insensitive ones, decide.
 */
function moreSpecific(a: ModeRule, b: ModeRule): boolean {
  for (let i = 0; i < a.score.length; i++) {
    const d = (a.score[i] as number) - (b.score[i] as number);
    if (d !== 0) return d > 0;
  }
  return false;
}

/** More conditions, then more exact ones, then more case-insensitive ones (an exact value beats a regex). */
function specificity(conditions: readonly Condition[]): number[] {
  return [conditions.length, conditions.filter((c) => c.type === 'equal').length, conditions.filter((c) => c.type === 'iequal').length];
}
