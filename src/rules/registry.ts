/**
 * Every rule kind Rampart manages, in the order docs list them. Adding a kind
 * is a module in kinds/ and a line here; every generic layer loops over this.
 */
import { InternalError } from '../errors.js';
import type { FieldValue, RuleReference } from './field.js';
import type { RuleKind } from './kind.js';
import { apiAbuseMode } from './kinds/api-abuse-mode.js';
import { binaryData } from './kinds/binary-data.js';
import { bola } from './kinds/bola.js';
import { bolaCounter, bruteforceCounter, dirbustCounter } from './kinds/counters.js';
import { credentialStuffingPoint } from './kinds/credential-stuffing-point.js';
import { credentialStuffingRegex } from './kinds/credential-stuffing-regex.js';
import { brute } from './kinds/brute.js';
import { disableAttackType } from './kinds/disable-attack-type.js';
import { disableStamp } from './kinds/disable-stamp.js';
import { enumeration } from './kinds/enum.js';
import { fileUploadSizeLimit } from './kinds/file-upload-size-limit.js';
import { forcedBrowsing } from './kinds/forced-browsing.js';
import { graphqlDetection } from './kinds/graphql-detection.js';
import { ignoreRegex } from './kinds/ignore-regex.js';
import { masking } from './kinds/masking.js';
import { mode } from './kinds/mode.js';
import { overlimitResSettings } from './kinds/overlimit-res-settings.js';
import { parserState } from './kinds/parser-state.js';
import { rateLimit } from './kinds/rate-limit.js';
import { rateLimitEnum } from './kinds/rate-limit-enum.js';
import { regex } from './kinds/regex.js';
import { setResponseHeader } from './kinds/set-response-header.js';
import { uploads } from './kinds/uploads.js';
import { vpatch } from './kinds/vpatch.js';

export const RULE_KINDS = [
  vpatch, regex, mode, disableAttackType, disableStamp, ignoreRegex, masking, binaryData, uploads,
  parserState, setResponseHeader, overlimitResSettings, rateLimit, fileUploadSizeLimit, graphqlDetection, apiAbuseMode,
  brute, bola, enumeration, forcedBrowsing, rateLimitEnum,
  credentialStuffingRegex, credentialStuffingPoint, bruteforceCounter, dirbustCounter, bolaCounter,
] as const;

type AnyKind = (typeof RULE_KINDS)[number];

/** A kind's `type` in the policy files. */
export type KindName = AnyKind['yaml'];

/** The canonical field values of kind K, by YAML name. */
export type FieldsOf<K extends KindName> = Extract<AnyKind, { yaml: K }> extends RuleKind<K, infer V> ? V : never;

const byName = new Map<string, RuleKind>(RULE_KINDS.map((kind) => [kind.yaml, kind as unknown as RuleKind]));
const byApiType = new Map<string, { kind: RuleKind; fields: Readonly<Record<string, FieldValue>> }>();
for (const kind of RULE_KINDS as readonly RuleKind[]) {
  byApiType.set(kind.api, { kind, fields: {} });
  for (const variant of kind.variants) byApiType.set(variant.api, { kind, fields: variant.fields });
}

export const KIND_NAMES: readonly KindName[] = RULE_KINDS.map((kind) => kind.yaml);

export function ruleKind(name: string): RuleKind {
  const kind = byName.get(name);
  if (!kind) throw new InternalError(`unknown rule kind ${name}`);
  return kind;
}

export function isKindName(name: string): name is KindName {
  return byName.has(name);
}

/** The kind an API `type` belongs to, and the fields the type itself carries. */
export function kindOfApiType(type: string): { kind: RuleKind; fields: Readonly<Record<string, FieldValue>> } | undefined {
  return byApiType.get(type);
}

/** The API `type` of a rule of `kind` with these fields (a variant's, when its fields are set). */
export function apiTypeOf(kind: RuleKind, fields: Readonly<Record<string, FieldValue | undefined>>): string {
  const variant = kind.variants.find((v) => Object.entries(v.fields).every(([name, value]) => fields[name] === value));
  return variant?.api ?? kind.api;
}

/** A reference a rule makes to another rule of its file (RuleReference), with the name it gives. */
export interface NamedReference extends RuleReference {
  /** The referring field (`regex_rule`). */
  readonly field: string;
  /** The `name` of the rule referred to. */
  readonly name: string;
}

/** The references a rule of `kind` with these field values makes (none for most kinds). */
export function referencesOf(kind: string, fields: Readonly<Record<string, unknown>>): NamedReference[] {
  return ruleKind(kind).fields.flatMap((field) => {
    const name = fields[field.name];
    return field.ref && typeof name === 'string' ? [{ ...field.ref, field: field.name, name }] : [];
  });
}
