/**
 * Each change of a plan against the requests the service recorded: what it
 * would have done to them (contract: "Evidence before enforcement"). Pure:
 * the hits come indexed (requests.ts), the live state is the plan's.
 *
 * A rule change is a rule before and a rule after (a create has no before, a
 * delete no after, a replacement's before is the rule it replaces); what the
 * kind decides about a request comes from its `evidence` (rules/kind.ts):
 * the filtering mode (modes.ts), blocking at a point, detection by a regex,
 * or a detection ignored. IP-list changes act on the requests from their
 * sources (sources.ts). Anything hits cannot show is `not_evaluable`, with why.
 * Regexes run on RE2's linear-time engine (model/linear-regex.ts): one that
 * needs PCRE's backtracking (lookaround, backreferences) is not evaluable.
 * The pass stops between requests at `--timeout` (stop-check.ts).
 */
import type { Change } from '../model/change.js';
import type { IpChange, DeleteIp, CreateIp } from '../model/ip-change.js';
import type { RuleChange, AdoptRule, UpdateRule } from '../model/rule-change.js';
import { groupByAction, onAction } from '../model/by-action.js';
import type { IpListName } from '../model/ip.js';
import { kindOf, type LiveRule, type Rule } from '../model/rule.js';
import { linearRegex, linearRegexProblem, type LinearRegex } from '../model/linear-regex.js';
import { isRecordedPoint, scopeMatches, unrecordedCondition } from '../model/scope-match.js';
import type { LiveState } from '../model/state.js';
import type { KindEvidence } from '../rules/kind.js';
import type { ImpactEffect } from '../plan/change-document.js';
import type { Impact } from '../plan/model.js';
import { onClass, type ByClass } from '../model/by-class.js';
import { changesOf, hasImpactSide } from './classes/index.js';
import { FilteringModes } from './modes.js';
import { HOST_POINT_KEY, pointKeyOf } from './point.js';
import type { ClientRequests, EvidenceHit, RequestRef } from './client-requests.js';
import type { RequestIndex } from './requests.js';
import { requestsFrom } from './sources.js';
import { StopCheck } from './stop-check.js';
import { distinct, noEffect, notEvaluable, tally } from './tally.js';

export interface ImpactInput {
  readonly changes: readonly Change[];
  readonly live: LiveState;
  /** The hits read, as requests. */
  readonly seen: RequestIndex;
  /** The experimental regexes' hits (their dry run), as requests. */
  readonly experimental: RequestIndex;
  /** The command's stop and `--timeout`: checked between requests. */
  readonly signal?: AbortSignal;
}

export function evaluateChanges(input: ImpactInput): Map<Change, Impact> {
  const context = new Context(input);
  const impacts = new Map<Change, Impact>();
  for (const change of input.changes) impacts.set(change, context.evaluate(change));
  return impacts;
}

/** What a rule change is: the rule as it is (if any) and as it will be (if any). */
interface RuleTransition {
  readonly before?: Rule;
  readonly after?: Rule;
}

const CLEAN_TRAFFIC = 'at least: the service does not record clean traffic, which the rule also acts on';

class Context {
  private readonly liveById: ReadonlyMap<number, LiveRule>;
  private readonly modes: FilteringModes;
  private readonly stop: StopCheck;

  constructor(private readonly input: ImpactInput) {
    this.liveById = new Map(input.live.rules.map((rule) => [rule.id, rule]));
    this.stop = new StopCheck(input.signal);
    this.modes = new FilteringModes(input.live, this.stop);
  }

  private readonly handlers: ByClass<Impact> = {
    rule: (change) => this.ruleChange(change),
    ip: (change) => this.ipChange(change),
  };

  evaluate(change: Change): Impact {
    this.stop.now();
    if (!hasImpactSide(change.kind)) return notEvaluable(`its class (${change.kind}) has no impact side: the hits do not tell what it changes`);
    return onClass(change, this.handlers);
  }

  private ipChange(change: IpChange): Impact {
    return onAction(change, {
      create: (c) => this.ipCreate(c),
      adopt: () => noEffect('adoption adds the owner mark; the lists stay as they are'),
      delete: (c) => this.ipDelete(c),
    });
  }

  private ruleChange(change: RuleChange): Impact {
    const transition = this.transition(change);
    if ('impact' in transition) return transition.impact;
    const rule = (transition.after ?? transition.before) as Rule;
    const evidence = kindOf(rule).evidence;
    if (!evidence) return notEvaluable(kindOf(rule).unevaluable ?? `hits record detected attacks; they do not show what a ${rule.kind} rule changes`);
    for (const side of [transition.before, transition.after]) {
      const unrecorded = side ? unrecordedCondition(side.conditions) : undefined;
      if (unrecorded) {
        const point = JSON.stringify(unrecorded.point);
        return notEvaluable(isRecordedPoint(unrecorded.point)
          ? `its scope's regex on ${point} cannot be tested on the recorded values: ${linearRegexProblem(unrecorded.value ?? '') ?? 'it does not compile'}`
          : `its scope tests ${point}, which hits do not record`);
      }
    }
    const requests = this.input.seen.client(rule.client);
    switch (evidence.decides) {
      case 'filtering-mode':
        return this.modes.impact(transition, requests, evidence.field);
      case 'blocking-at-point':
        return this.sets(transition, requests, (r) => this.blockingAtPoint(r, evidence, requests), {
          forward: { effect: 'newly_blocked', keep: (s) => !requests.blocked(s) }, backward: { effect: 'no_longer_blocked', keep: (s) => requests.blocked(s) }, lowerBound: true,
        });
      case 'detection-by-regex':
        return this.regexChange(transition, evidence, requests);
      case 'ignoring-stamp':
      case 'ignoring-attack-type':
        return this.sets(transition, requests, (r) => this.flaggedAt(r, requests, (hit) => ignoredBy(r, evidence, hit)), {
          forward: { effect: 'no_longer_detected' }, backward: { effect: 'newly_detected' }, lowerBound: false,
        });
    }
  }

  /** Before and after, or the impact when there is nothing to evaluate (a comment, a replacement's delete). */
  private transition(change: RuleChange): RuleTransition | { impact: Impact } {
    const inPlace = (c: UpdateRule | AdoptRule, unchanged: string): RuleTransition | { impact: Impact } =>
      (c.fields.every((field) => field === 'comment') ? { impact: noEffect(unchanged) } : { before: c.live, after: c.rule });
    return onAction<RuleChange, RuleTransition | { impact: Impact }>(change, {
      create: (c) => {
        const replaced = (c.replaces ?? []).map((id) => this.liveById.get(id)).find((rule) => rule !== undefined);
        return replaced ? { before: replaced, after: c.rule } : { after: c.rule };
      },
      update: (c) => inPlace(c, 'only the comment changes'),
      adopt: (c) => inPlace(c, 'adoption adds the owner mark; the rule acts as before'),
      delete: (c) => {
        if (c.reason === 'replaced') return { impact: noEffect('replaced by the create above, which carries the impact') };
        if (c.reason === 'duplicate') return { impact: noEffect('another rule provides the same') };
        if (this.promotedBy(c.rule)) return { impact: noEffect('promoted to a blocking regex above, which carries the impact') };
        return { before: c.rule };
      },
    });
  }

  /**
   * A set-valued change: `select` gives the requests a rule acts on (each
   * once, ascending); a new rule acts forward on those the old one did not,
   * a removed one backward.
   */
  private sets(
    transition: RuleTransition, requests: ClientRequests, select: (rule: Rule) => RequestRef[],
    how: { forward: Direction; backward: Direction; lowerBound: boolean },
  ): Impact {
    const before = transition.before ? select(transition.before) : [];
    const after = transition.after ? select(transition.after) : [];
    const options = { lowerBound: how.lowerBound, ...(how.lowerBound ? { reason: CLEAN_TRAFFIC } : {}) };
    const gained = without(after, before).filter((r) => how.forward.keep?.(r) ?? true);
    const lost = without(before, after).filter((r) => how.backward.keep?.(r) ?? true);
    if (!transition.before) return tally(how.forward.effect, gained, requests, options);
    if (!transition.after) return tally(how.backward.effect, lost, requests, options);
    if (gained.length > 0) return tally(how.forward.effect, gained, requests, options);
    if (lost.length > 0) return tally(how.backward.effect, lost, requests, options);
    return noEffect('it would have acted on the same recorded requests as before');
  }

  /**
   * Requests in the rule's scope with a hit at its point that `hitCounts`
   * accepts, ascending. A scope tests only where a request went: it is asked
   * once per place, not per request.
   */
  private flaggedAt(rule: Rule, requests: ClientRequests, hitCounts: (hit: EvidenceHit) => boolean): RequestRef[] {
    const point = pointKeyOf(rule.point);
    const counts = (hit: EvidenceHit) => hit.pointKey === point && hitCounts(hit);
    const found: RequestRef[] = [];
    for (const place of requests.candidates(rule.conditions)) {
      this.stop.step();
      if (!scopeMatches(rule.conditions, place)) continue;
      // Indexed, with one test for all: a `for...of` and a closure per request were garbage for each (tally.ts).
      const at = requests.at(place);
      for (let i = 0; i < at.length; i++) {
        const request = at[i] as RequestRef;
        if (this.stepped(requests.hits(request).some(counts))) found.push(request);
      }
    }
    return ascending(found);
  }

  private blockingAtPoint(rule: Rule, evidence: Extract<KindEvidence, { decides: 'blocking-at-point' }>, requests: ClientRequests): RequestRef[] {
    const attack = (rule.fields as Readonly<Record<string, unknown>>)[evidence.field];
    // Every request carries its Host: a patch there acts on every request of its scope.
    if (pointKeyOf(rule.point) === HOST_POINT_KEY) {
      const found: RequestRef[] = [];
      for (const place of requests.candidates(rule.conditions)) if (this.stepped(scopeMatches(rule.conditions, place))) found.push(...requests.at(place));
      return ascending(found);
    }
    return this.flaggedAt(rule, requests, (hit) => attack === 'any' || hit.type === attack);
  }

  private regexChange(transition: RuleTransition, evidence: Extract<KindEvidence, { decides: 'detection-by-regex' }>, requests: ClientRequests): Impact {
    const experimental = (rule: Rule | undefined) => rule !== undefined && (rule.fields as Readonly<Record<string, unknown>>)[evidence.experimental] === true;
    const { before, after } = transition;
    if (after && experimental(after) && (!before || experimental(before))) return noEffect('an experimental regex records its matches and acts on no request');
    if (!after && before && experimental(before)) return noEffect('an experimental regex records its matches and acts on no request');
    // A promotion: the experimental rule's own matches in the window are the evidence, not a floor.
    const trial = after && !experimental(after) ? (before && experimental(before) ? before as LiveRule : this.experimentalTwin(after)) : undefined;
    if (trial?.regexId !== undefined) {
      const tried = this.input.experimental.client(trial.client);
      const matched = this.withHit(tried, (hit) => hit.regexIds.includes(trial.regexId as number));
      return tally('newly_detected', matched, tried, { reason: `what the experimental regex #${trial.id} matched in the window` });
    }
    // Compiled once per rule, before any request: one RE2 cannot take makes the change not evaluable.
    const regexes = new Map<Rule, LinearRegex>();
    for (const rule of [before, after]) {
      if (!rule || (rule as Partial<LiveRule>).regexId !== undefined) continue;
      const source = String((rule.fields as Readonly<Record<string, unknown>>)[evidence.field] ?? '');
      const compiled = linearRegex(source);
      if (!compiled.ok) return notEvaluable(`its regex cannot be tested on the recorded values: ${linearRegexProblem(source)}`);
      regexes.set(rule, compiled.regex);
    }
    const select = (rule: Rule): RequestRef[] => {
      const id = (rule as Partial<LiveRule>).regexId;
      // A live rule's own matches are recorded with its id; a new one is tried on the values the hits recorded.
      if (id !== undefined) return this.withHit(requests, (hit) => hit.regexIds.includes(id));
      const regex = regexes.get(rule) as LinearRegex;
      return this.flaggedAt(rule, requests, (hit) => hit.value !== undefined && regex.test(hit.value));
    };
    const lowerBound = after !== undefined && (after as Partial<LiveRule>).regexId === undefined;
    return this.sets(transition, requests, select, { forward: { effect: 'newly_detected' }, backward: { effect: 'no_longer_detected' }, lowerBound });
  }

  /** Every request with a hit `counts` accepts, ascending. */
  private withHit(requests: ClientRequests, counts: (hit: EvidenceHit) => boolean): RequestRef[] {
    const found: RequestRef[] = [];
    for (let request = 0; request < requests.size; request++) if (this.stepped(requests.hits(request).some(counts))) found.push(request);
    return found;
  }

  /** The live experimental rule a new blocking regex promotes: same scope, point and regex. */
  private experimentalTwin(rule: Rule): LiveRule | undefined {
    const evidence = kindOf(rule).evidence;
    if (evidence?.decides !== 'detection-by-regex') return undefined;
    const field = (r: Rule, name: string) => (r.fields as Readonly<Record<string, unknown>>)[name];
    return this.input.live.rules.find((live) => live.kind === rule.kind && live.client === rule.client && field(live, evidence.experimental) === true
      && field(live, evidence.field) === field(rule, evidence.field) && pointKeyOf(live.point) === pointKeyOf(rule.point)
      && sameConditions(live, rule));
  }

  /** Whether a live experimental rule is promoted by a create of this plan. */
  private promotedBy(rule: LiveRule): boolean {
    const evidence = kindOf(rule).evidence;
    if (evidence?.decides !== 'detection-by-regex' || (rule.fields as Readonly<Record<string, unknown>>)[evidence.experimental] !== true) return false;
    return groupByAction(changesOf(this.input.changes, 'rule'))('create').some((change) => this.experimentalTwin(change.rule)?.id === rule.id);
  }

  /** A filter's answer, after one step of the pass. */
  private stepped(answer: boolean): boolean {
    this.stop.step();
    return answer;
  }

  private ipCreate(change: CreateIp): Impact {
    if (change.force) return noEffect('moves values between objects Rampart owns; the lists stay as they are');
    const requests = this.input.seen.client(change.client);
    const from = distinct(change.entries.map((entry) => (this.stop.step(), requestsFrom(entry, requests))));
    return LIST_EFFECTS[change.list](from, requests);
  }

  private ipDelete(change: DeleteIp): Impact {
    const gone = change.objects.filter((object) => object.reason === 'not-declared');
    if (gone.length === 0) return noEffect('the values stay in the lists, held by other objects');
    const requests = this.input.seen.client(change.client);
    return tally('attack_hits_from', distinct(gone.flatMap((object) => object.entries.map((entry) => (this.stop.step(), requestsFrom(entry, requests))))), requests, {
      reason: 'attack requests from the sources the delete takes out of the lists',
    });
  }
}

interface Direction {
  readonly effect: ImpactEffect;
  readonly keep?: (request: RequestRef) => boolean;
}

/** What a new entry of each list would have done to the requests from its sources. */
const LIST_EFFECTS: Readonly<Record<IpListName, (from: readonly RequestRef[], requests: ClientRequests) => Impact>> = {
  // The attacks are counted exactly; what the entry acts on is more: its sources' clean traffic, never recorded.
  black: (from, requests) => tally('attack_hits_from', from, requests, { lowerBound: true, reason: 'the deny list blocks every request from it; attacks are all the service recorded' }),
  gray: (from, requests) => tally('attack_hits_from', from, requests, { lowerBound: true, reason: 'the gray list has attacks from it blocked under safe_blocking; clean traffic from it is not recorded' }),
  white: (from, requests) => tally('no_longer_blocked', from.filter((r) => requests.blocked(r)), requests),
};

function ignoredBy(rule: Rule, evidence: Extract<KindEvidence, { decides: 'ignoring-stamp' | 'ignoring-attack-type' }>, hit: EvidenceHit): boolean {
  const value = (rule.fields as Readonly<Record<string, unknown>>)[evidence.field];
  return evidence.decides === 'ignoring-stamp' ? hit.stamps.includes(value as number) : value === 'any' || hit.type === value;
}

/** Request numbers, ascending (a scope's places interleave their requests). */
function ascending(requests: RequestRef[]): RequestRef[] {
  return requests.sort((a, b) => a - b);
}

/** The requests of `from` not in `other`, both ascending: one merge, no set. */
function without(from: readonly RequestRef[], other: readonly RequestRef[]): RequestRef[] {
  const kept: RequestRef[] = [];
  let j = 0;
  for (const request of from) {
    while (j < other.length && (other[j] as number) < request) j++;
    if (other[j] !== request) kept.push(request);
  }
  return kept;
}

function sameConditions(a: Rule, b: Rule): boolean {
  return JSON.stringify(a.conditions) === JSON.stringify(b.conditions);
}
