/**
 * Hits → proposed false-positive rules, the way the service's own tooling does
 * it: hits of detector attack types only, grouped by client, application,
 * scope and point; each group gives one `disable_stamp` per stamp, at that
 * point, and a `disable_attack_type` where no stamp can say it (proposedRules).
 */
import { regroupPoints } from '../grammar/points.js';
import { conditionKey, pointKey, type Condition, type Point } from '../model/rule.js';
import { disableAttackType } from '../rules/kinds/disable-attack-type.js';
import { disableStamp } from '../rules/kinds/disable-stamp.js';
import { PATCH_ATTACK_TYPES } from '../grammar/vocabulary.js';
import type { Hit } from '../hits/read.js';
import { hitScope } from './scope.js';

/** Attack types the detectors report: a false positive of any other type (brute force, a virtual patch) is no detector's. */
const DETECTOR_TYPES: ReadonlySet<string> = new Set(PATCH_ATTACK_TYPES.filter((type) => type !== 'any'));

export type RuleChoice = 'stamp' | 'attack';

/** Hits of one client, application, scope and point. */
export interface HitGroup {
  readonly client: number;
  /** The hit's application; 0 or less names none (the default application). */
  readonly application: number;
  readonly domain: string;
  readonly path: string;
  /** Without the application's instance condition. */
  scope: readonly Condition[];
  /** Set when the service scopes these hits otherwise (`action/by_hit`): what Rampart derived. */
  derivedScope?: readonly Condition[];
  readonly point: readonly Point[];
  readonly hits: readonly Hit[];
}

/** One rule to propose, as it would be written (without its name). */
export interface ProposedRule {
  readonly group: HitGroup;
  readonly type: string;
  /** `stamp` (disable_stamp) or `attack` (disable_attack_type). */
  readonly field: 'stamp' | 'attack';
  readonly value: number | string;
}

export function isDetectorHit(hit: Hit): boolean {
  return DETECTOR_TYPES.has(hit.type);
}

export function groupHits(hits: readonly Hit[]): HitGroup[] {
  const groups = new Map<string, HitGroup & { hits: Hit[] }>();
  for (const hit of hits.filter(isDetectorHit)) {
    const scope = hitScope(hit);
    const point = regroupPoints(hit.point);
    const key = JSON.stringify([hit.client, Math.max(hit.application, 0), scope.map(conditionKey), point.map(pointKey)]);
    const group = groups.get(key);
    if (group) group.hits.push(hit);
    else groups.set(key, { client: hit.client, application: hit.application, domain: hit.domain, path: hit.path, scope, point, hits: [hit] });
  }
  return [...groups.values()];
}

/** Which rules to propose: by default the narrowest (see proposedRules). */
export interface RuleSelection {
  /** `--only`: one rule type alone. */
  readonly only?: RuleChoice;
  /** `--attack-types`: also a `disable_attack_type` per attack type and point, beside the stamps. */
  readonly attackTypes?: boolean;
}

/**
 * The narrowest rules that stop each group's false positives: one
 * `disable_stamp` per stamp, and a `disable_attack_type` only for an attack
 * type whose hits carry no stamp (`xxe`, `invalid_xml`), since turning off a
 * whole attack type at a parameter is far wider than the one signature that
 * misfired. `--attack-types` adds one per attack type, as before; `--only`
 * keeps one rule type alone.
 */
export function proposedRules(groups: readonly HitGroup[], selection: RuleSelection = {}): ProposedRule[] {
  const { only, attackTypes = false } = selection;
  return groups.flatMap((group) => {
    const stamps = [...new Set(group.hits.flatMap((hit) => hit.stamps.filter((stamp) => stamp > 0)))].sort((a, b) => a - b);
    const stamped = new Set(group.hits.filter((hit) => hit.stamps.some((stamp) => stamp > 0)).map((hit) => hit.type));
    const types = [...new Set(group.hits.map((hit) => hit.type))].sort()
      .filter((type) => only === 'attack' || (only !== 'stamp' && (attackTypes || !stamped.has(type))));
    return [
      ...(only === 'attack' ? [] : stamps.map((stamp): ProposedRule => ({ group, type: disableStamp.yaml, field: 'stamp', value: stamp }))),
      ...types.map((type): ProposedRule => ({ group, type: disableAttackType.yaml, field: 'attack', value: type })),
    ];
  });
}
