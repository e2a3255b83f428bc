/**
 * The service's rule catalogue as the emulator enforces it: per API `type`, the
 * type-specific create fields, whether a `point` is taken, whether only one
 * rule of the type may exist per condition set, and what can be updated in
 * place. Written from the service's documentation, never from the client's
 * model: this table is the oracle the client is tested against.
 */
import { CONTROL_ATTACK_TYPES, CONTROL_FIELDS, checkReactionMatchesMode, ENUMERATED_PARAMETERS } from './controls.js';
import { credentialFields } from './credentials.js';
import { bool, int, oneOf, regex, regexRef, text, texts, type FieldSpec } from './fields.js';

export interface RuleKind {
  /** `required`, `optional` (stored `[]` when missing) or `none` (sending one is a 400). */
  readonly point: 'required' | 'optional' | 'none';
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Type-specific fields `PUT /v3/hint/{id}` may change (plus `comment`, for every type). */
  readonly updatable: readonly string[];
  /** A second rule of the type on the same condition set is a duplicate the service resolves itself. */
  readonly onePerScope?: boolean;
  /** The service gives the record a `regex_id` others can point to (`disable_regex`). */
  readonly hasRegexId?: boolean;
  /** Writes need an extended admin token (else 403). */
  readonly extendedToken?: boolean;
  /** A check across fields, on create and on the record an update would leave (400 when it fails). */
  readonly crossCheck?: (fields: Readonly<Record<string, unknown>>) => void;
  /** Read-only fields the service adds to the stored record (listed, never taken by a write). */
  readonly readOnly?: (type: string, id: number) => Readonly<Record<string, unknown>>;
  /**
   * A counter of the older trigger product: never updated; a client's delete
   * answers 200 and changes nothing; a create on the scope of a live one gives
   * that one back.
   */
  readonly counter?: boolean;
  /** Credential-stuffing rules: left out of a normal token's hint listing, read from their own endpoint. */
  readonly credentials?: boolean;
}

const ATTACK_TYPES = [
  'xss', 'sqli', 'rce', 'xxe', 'ptrav', 'crlf', 'redir', 'nosqli', 'ldapi', 'scanner', 'mass_assignment',
  'ssrf', 'ssi', 'mail_injection', 'ssti',
];
/** `vpatch` and `disable_attack_type`. */
export const PATCH_ATTACK_TYPES: readonly string[] = [...ATTACK_TYPES, 'any', 'invalid_xml'];
/** `regex` and `experimental_regex`. */
export const REGEX_ATTACK_TYPES: readonly string[] = [...ATTACK_TYPES, 'vpatch'];

const required = { required: true } as const;

const regexKind: RuleKind = {
  point: 'required',
  fields: { regex: regex(required), attack_type: oneOf(REGEX_ATTACK_TYPES, required) },
  updatable: ['regex'],
  hasRegexId: true,
};

export const RULE_CATALOGUE: Readonly<Record<string, RuleKind>> = {
  vpatch: {
    point: 'required',
    fields: { attack_type: oneOf(PATCH_ATTACK_TYPES, required) },
    updatable: ['attack_type'],
  },
  disable_attack_type: {
    point: 'required',
    fields: { attack_type: oneOf(PATCH_ATTACK_TYPES, required) },
    updatable: ['attack_type'],
  },
  disable_stamp: {
    point: 'required',
    fields: { stamp: int({ min: 1 }, required) },
    updatable: ['stamp'],
    extendedToken: true,
  },
  regex: regexKind,
  experimental_regex: regexKind,
  disable_regex: {
    point: 'required',
    fields: { regex_id: regexRef(required) },
    updatable: [],
  },
  service_mode: {
    point: 'none',
    fields: { mode: oneOf(['default', 'off', 'monitoring', 'block', 'safe_blocking'], required) },
    updatable: ['mode'],
    onePerScope: true,
  },
  api_abuse_mode: {
    point: 'none',
    // Required on create: the service's client sends `enabled` when its user sets none.
    fields: { mode: oneOf(['enabled', 'disabled'], required) },
    updatable: ['mode'],
    onePerScope: true,
  },
  sensitive_data: { point: 'required', fields: {}, updatable: [] },
  binary_data: { point: 'required', fields: {}, updatable: [] },
  uploads: {
    point: 'required',
    fields: { file_type: oneOf(['docs', 'html', 'images', 'music', 'video'], required) },
    updatable: ['file_type'],
  },
  parser_state: {
    point: 'required',
    fields: {
      parser: oneOf([
        'base64', 'cookie', 'form_urlencoded', 'gzip', 'grpc', 'json_doc', 'multipart', 'percent', 'protobuf',
        'htmljs', 'viewstate', 'xml', 'jwt', 'gql',
      ], required),
      state: oneOf(['enabled', 'disabled'], required),
    },
    updatable: ['parser', 'state'],
  },
  set_response_header: {
    point: 'none',
    fields: { mode: oneOf(['append', 'replace'], required), name: text(required), values: texts(required) },
    updatable: ['mode', 'name', 'values'],
  },
  overlimit_res_settings: {
    point: 'none',
    fields: { overlimit_time: int({ min: 0 }, required), mode: oneOf(['off', 'monitoring', 'blocking'], { default: 'monitoring' }) },
    updatable: ['overlimit_time', 'mode'],
    onePerScope: true,
  },
  rate_limit: {
    point: 'required',
    fields: {
      rate: int({ min: 0, max: 1000 }, required),
      rsp_status: int({ min: 400, max: 599 }, required),
      burst: int({ min: 0, max: 1000 }, { default: 0 }),
      delay: int({ min: 0, max: 1000 }, { default: 0 }),
      time_unit: oneOf(['rps', 'rpm'], { default: 'rps' }),
    },
    updatable: ['rate', 'rsp_status', 'burst', 'delay', 'time_unit'],
  },
  file_upload_size_limit: {
    point: 'optional',
    fields: {
      size: int({ min: 1 }, required),
      size_unit: oneOf(['b', 'kb', 'mb', 'gb', 'tb'], { default: 'b' }),
      mode: oneOf(['monitoring', 'block', 'off', 'default'], { default: 'monitoring' }),
    },
    updatable: ['mode', 'size'],
  },
  graphql_detection: {
    point: 'none',
    fields: {
      mode: oneOf(['off', 'default', 'monitoring', 'block'], required),
      max_depth: int({ min: 1, max: 100 }, { default: 10 }),
      max_value_size_kb: int({ min: 1, max: 100 }, { default: 10 }),
      max_doc_size_kb: int({ min: 1, max: 1024 }, { default: 100 }),
      // A count of aliases, not a size: the service's Go client sends `max_aliases`.
      max_aliases: int({ min: 1 }, { default: 5 }),
      max_doc_per_batch: int({ min: 1, max: 100 }, { default: 10 }),
      introspection: bool({ default: true }),
      debug_enabled: bool({ default: true }),
    },
    updatable: ['mode', 'max_depth', 'max_value_size_kb', 'max_doc_size_kb', 'max_aliases', 'max_doc_per_batch', 'introspection', 'debug_enabled'],
  },
  brute: control('brute', { enumerates: true }),
  bola: control('bola', { enumerates: true }),
  enum: control('enum', { enumerates: true }),
  forced_browsing: control('forced_browsing', { enumerates: false }),
  rate_limit_enum: control('rate_limit_enum', { enumerates: false }),
  credentials_regex: {
    point: 'none',
    fields: credentialFields.regex,
    updatable: ['regex', 'login_regex', 'case_sensitive', 'cred_stuff_type'],
    credentials: true,
  },
  credentials_point: {
    point: 'required',
    fields: credentialFields.point,
    updatable: ['cred_stuff_type'],
    credentials: true,
  },
  brute_counter: counter('b'),
  dirbust_counter: counter('d'),
  bola_counter: counter('i'),
};

/**
 * Real types the service has but the catalogue does not describe (counters,
 * credential points, trigger controls): accepted as sent, so foreign rules can
 * be created and seeded; their extra fields are stored unchecked.
 */
export const UNCHECKED_TYPES: readonly string[] = ['attack_rechecker'];

/** An abuse mitigation control: the shared fields, `enumerated_parameters` for the three that watch parameters. */
function control(type: string, { enumerates }: { enumerates: boolean }): RuleKind {
  const attackType = CONTROL_ATTACK_TYPES[type] ?? type;
  // The service's client sends the control's attack type with a create; any other value is refused.
  const fields = { ...CONTROL_FIELDS, attack_type: oneOf([attackType]) };
  return {
    point: 'none',
    fields: enumerates ? { ...fields, enumerated_parameters: ENUMERATED_PARAMETERS } : fields,
    updatable: enumerates ? ['threshold', 'reaction', 'enumerated_parameters'] : ['threshold', 'reaction'],
    crossCheck: checkReactionMatchesMode,
    readOnly: () => ({ attack_type: attackType, mitigation: type }),
  };
}

/** A counter: conditions only, with a read-only `counter` (`b:…`, `d:…`, `i:…`). */
function counter(prefix: string): RuleKind {
  return { point: 'none', fields: {}, updatable: [], counter: true, readOnly: (_type, id) => ({ counter: `${prefix}:${id}` }) };
}

export function ruleKind(type: string): RuleKind | undefined {
  return Object.hasOwn(RULE_CATALOGUE, type) ? RULE_CATALOGUE[type] : undefined;
}

export function isKnownType(type: string): boolean {
  return ruleKind(type) !== undefined || UNCHECKED_TYPES.includes(type);
}
