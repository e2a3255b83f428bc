/**
 * What the five abuse mitigation controls share (the service's protection
 * against brute force, BOLA, enumeration, forced browsing and enumeration by
 * rate): their fields, which of them change in place, the `mode`↔`reaction`
 * rule and the plan line. Each control is a module of its own that takes
 * these and adds what is its alone (`enumerated_parameters`).
 */
import { allowedKeysByMode, compilesAsRegex } from '../checks.js';
import { bool, int, oneOf, strings } from '../field.js';
import { duration, formatDuration, point } from '../leaves.js';
import { list, object, union } from '../nested.js';

/** The service's range of a reaction: 10 minutes to ten years, in seconds. */
const reactionTime = (description: string) => duration({ min: 600, max: 315_569_520, description });

const CONDITION_FIELDS = [
  'ip', 'method', 'user_agent', 'domain', 'uri', 'status_code', 'request_time', 'request_size', 'response_size', 'attack_type', 'blocked',
] as const;
const OPERATORS = ['eq', 'ne', 'imatch', 'notimatch', 'match', 'notmatch', 'lt', 'gt', 'le', 'ge'] as const;
const operator = oneOf(OPERATORS, { required: true, description: 'How the value compares: `eq`, `ne`, `imatch`, `notimatch`, `match`, `notmatch`, `lt`, `gt`, `le`, `ge`.' });
const conditionValues = strings({ required: true, description: 'The values compared with.' });

export const controlFields = {
  mode: oneOf(['monitoring', 'block'] as const, {
    required: true, example: 'block',
    description: '`monitoring` graylists the sources, `block` blocks them. Set when the control is created: a change makes a new control.',
  }),
  threshold: object({
    count: int({ min: 1, required: true, description: 'Requests that trigger the reaction.' }),
    period: int({ min: 1, required: true, description: 'Within this many seconds.' }),
  }, { required: true, example: { count: 20, period: 60 }, description: 'When the control reacts: `count` requests within `period` seconds.' }),
  reaction: object({
    block_by_session: reactionTime('Blocks the session for this long (`block` mode).'),
    block_by_ip: reactionTime('Blocks the source IP for this long (`block` mode).'),
    graylist_by_ip: reactionTime('Graylists the source IP for this long (`monitoring` mode).'),
  }, {
    required: true, minKeys: 1, example: { block_by_ip: 3600 },
    description: 'What happens to a source past the threshold, each for a duration of 10m to 10 years (`600`, `10m`, `1h`, `7d`).',
  }),
  advanced_conditions: list(object({
    field: oneOf(CONDITION_FIELDS, { required: true, description: `What the condition looks at: ${CONDITION_FIELDS.map((f) => `\`${f}\``).join(', ')}.` }),
    operator,
    value: conditionValues,
  }, { description: 'One condition on the request or response.' }), {
    absentIs: [], example: [{ field: 'method', operator: 'eq', value: ['POST'] }],
    description: 'Extra conditions the counted requests meet, on request and response facts. Part of what the control is: a change makes a new control.',
  }),
  arbitrary_conditions: list(object({
    point: point({ required: true, description: 'Where in the request, two-level as a rule\'s `point`.' }),
    operator,
    value: conditionValues,
  }, { description: 'One condition on a request point.' }), {
    absentIs: [], example: [{ point: [['header', 'X-CLIENT']], operator: 'eq', value: ['mobile'] }],
    description: 'Extra conditions the counted requests meet, on request points. Part of what the control is: a change makes a new control.',
  }),
};

/** The parameters a brute-force, BOLA or enumeration control watches: listed points (`exact`) or names and values by regex (`regexp`). */
export const enumeratedParameters = union('mode', {
  exact: {
    points: list(object({
      point: point({ required: true, wire: 'flat', description: 'A parameter, two-level as a rule\'s `point` (the service takes this one flat).' }),
      sensitive: bool({ serviceDefault: false, description: 'The value is a secret (a password): the service keeps it masked.' }),
    }, { description: 'One watched parameter.' }), { required: true, minItems: 1, description: 'The watched parameters.' }),
  },
  regexp: {
    name_regexps: strings({ required: true, allowEmpty: true, check: compilesAsRegex, description: 'Parameter names that count, as regexes (`[""]`: any name).' }),
    value_regexps: strings({ required: true, allowEmpty: true, check: compilesAsRegex, description: 'Parameter values that count, as regexes (`[""]`: any value).' }),
    additional_parameters: bool({ serviceDefault: false, description: 'Also count parameters beyond the matched ones.' }),
    plain_parameters: bool({ serviceDefault: false, description: 'Count parameters in their plain (undecoded) form.' }),
  },
}, {
  // The service refuses a brute, BOLA or enumeration control without them ("can't be blank").
  required: true,
  example: { mode: 'exact', points: [{ point: [['post'], ['json_doc'], ['hash', 'password']], sensitive: true }] },
  description: 'The parameters whose values the control counts: `mode: exact` with `points`, or `mode: regexp` with `name_regexps` and `value_regexps`.',
});

/** `PUT /v3/hint/{id}` changes these; the rest (`mode`, the conditions) is what the control is. */
const CONTROL_UPDATABLE = ['threshold', 'reaction'] as const;

const CONTROL_CHECKS = [
  allowedKeysByMode('reaction', { block: ['block_by_session', 'block_by_ip'], monitoring: ['graylist_by_ip'] }),
];

interface ControlValues {
  readonly mode?: string;
  readonly threshold?: { readonly count?: number; readonly period?: number };
  readonly reaction?: Readonly<Record<string, number | undefined>>;
}

/** `block: 20 in 60 s → block_by_ip 1h`. */
export function describeControl(f: ControlValues): string {
  const reaction = Object.entries(f.reaction ?? {}).flatMap(([key, seconds]) => (seconds === undefined ? [] : [`${key} ${formatDuration(seconds)}`]));
  return `${f.mode ?? '?'}: ${f.threshold?.count ?? '?'} in ${f.threshold?.period ?? '?'} s → ${reaction.join(', ') || '?'}`;
}

/** What every control declares alike: `defineRuleKind({ yaml, api, description, ...controlParts, examples })`. */
export const controlParts = {
  point: 'none',
  fields: controlFields,
  updatable: CONTROL_UPDATABLE,
  checks: CONTROL_CHECKS,
  unevaluable: 'an abuse control acts on request counts over time; hits record single attacks, not the traffic it counts',
  describe: describeControl,
} as const;

/** The parts of a control that also counts `enumerated_parameters` (changed in place). */
export const enumeratingControlParts = {
  ...controlParts,
  fields: { ...controlFields, enumerated_parameters: enumeratedParameters },
  updatable: [...CONTROL_UPDATABLE, 'enumerated_parameters'],
} as const;
