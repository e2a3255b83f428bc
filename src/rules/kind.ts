/**
 * A rule kind declared as data (the way an octoDNS record type or a Terraform
 * resource declares its schema): its YAML `type` and API `type`, its fields,
 * which of them can change in place (the rest is its identity), whether the
 * service allows one per scope, whether it has a `point`, how a plan describes
 * it, and examples. `defineRuleKind` turns the declaration into the RuleKind
 * the generic layers loop over.
 *
 * A kind module declares its `fields` as a constant of its own before the
 * kind: TypeScript then infers each field's value type before it types the
 * `describe` callback, which reads them (inline, the callback would widen
 * every field to FieldValue).
 */
import { InternalError } from '../errors.js';
import type { FieldFactory, FieldProblem, FieldSpec, FieldValue } from './field.js';

export type PointUse = 'required' | 'optional' | 'none';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any: each factory has its own value type
type FieldFactories = Record<string, FieldFactory<any>>;

/** The canonical values of a kind's fields, by YAML name. */
export type FieldValues<F extends FieldFactories> = {
  readonly [N in keyof F]?: F[N] extends FieldFactory<infer V> ? V : never;
};

export interface RuleKindSpec<Y extends string, F extends FieldFactories> {
  /** `type` in the policy files. */
  readonly yaml: Y;
  /** The API's `type`. */
  readonly api: string;
  readonly description: string;
  readonly point: PointUse;
  /** The service keeps one rule of this type per condition set and drops a second one. */
  readonly onePerScope?: boolean;
  readonly fields: F;
  /** Fields `PUT /v3/hint/{id}` can change; every other field is part of the identity. */
  readonly updatable: readonly NoInfer<keyof F & string>[];
  /**
   * Identity fields every `PUT /v3/hint/{id}` still carries, with the value
   * they have: the service's update takes them (its provider's update
   * customizers send them), but two rules that differ in one are two rules
   * to Rampart (two stamps disabled at one point). An update that left one
   * out would reset it.
   */
  readonly carriedByUpdates?: readonly NoInfer<keyof F & string>[];
  /** Fields of which a rule gives exactly one (`regex_id` or `regex_rule`). */
  readonly exactlyOne?: readonly NoInfer<keyof F & string>[];
  /**
   * Other API types that are this kind with some fields set: `regex` with
   * `experimental: true` is the API's `experimental_regex`. Such fields are
   * carried by the type, never sent as a field.
   */
  readonly variants?: readonly { readonly api: string; readonly fields: NoInfer<FieldValues<F>> }[];
  /** Rules between fields the schema cannot express (which `reaction` keys each `mode` allows). */
  readonly checks?: readonly KindCheck[];
  /** What the service will not let a client delete (see Undeletable). */
  readonly undeletable?: Undeletable;
  /** A right the API token needs to write rules of the kind, beyond the usual (the service answers 403 without it). */
  readonly needsRight?: string;
  /**
   * Keys an earlier release wrote, by their new name: read as the new key for
   * one release, with a warning that names it; `rampart fmt` rewrites them.
   */
  readonly renamed?: Readonly<Record<string, NoInfer<keyof F & string>>>;
  /**
   * Fields the service's own client sends in every create of the kind, with a
   * value fixed by the kind, which listings echo read-only (a control's
   * `attack_type`): sent, never read, never compared.
   */
  readonly createConstants?: Readonly<Record<string, string>>;
  /** What the service's hits show of a rule of the kind (`--impact`); absent, they show nothing of it. */
  readonly evidence?: KindEvidence<NoInfer<keyof F & string>>;
  /** Without `evidence`: why hits cannot show what a rule of the kind does, when more is to say than the default. */
  readonly unevaluable?: string;
  /** One line for plans: `30 rpm, then 429`. */
  readonly describe: (fields: NoInfer<FieldValues<F>>) => string;
  /** Complete rules of this kind as written (without `name` and `type`), for docs and conformance tests. */
  readonly examples: readonly Readonly<Record<string, unknown>>[];
}

/**
 * What a kind decides about a request that the service's hits can show
 * (`--impact`), and the field that says how:
 * - `filtering-mode`: which requests are blocked, by the mode in `field`;
 * - `blocking-at-point`: requests carrying the attack in `field` (or any) at the point are blocked;
 * - `detection-by-regex`: a value at the point matching `field` is an attack; `experimental` only records;
 * - `ignoring-stamp` / `ignoring-attack-type`: detections by the stamp or of the attack type in `field` at the point are dropped.
 */
export type KindEvidence<N extends string = string> =
  | { readonly decides: 'filtering-mode'; readonly field: N }
  | { readonly decides: 'blocking-at-point'; readonly field: N }
  | { readonly decides: 'detection-by-regex'; readonly field: N; readonly experimental: N }
  | { readonly decides: 'ignoring-stamp'; readonly field: N }
  | { readonly decides: 'ignoring-attack-type'; readonly field: N };

/**
 * Rules a client cannot delete. `always`: none of the kind (counters: the
 * service removes one when no trigger uses it). `adopted`: one Rampart adopted
 * rather than created (the account's default abuse controls, which the
 * service made and keeps). Removed from the policies, such a rule is left in
 * place and the plan says so; no call is made.
 */
export type Undeletable = 'always' | 'adopted';

/** A rule between fields: problems of a schema-valid rule as written, at paths relative to the rule. */
export interface KindCheck {
  /** For the reference docs. */
  readonly description: string;
  problems(rule: Readonly<Record<string, unknown>>): FieldProblem[];
}

export interface KindField extends FieldSpec {
  /** The YAML name. */
  readonly name: string;
  readonly updatable: boolean;
  /**
   * Sent in every update in place, whether it changes or not: the kind's
   * whole mutable surface on the service (the updatable fields and those it
   * carries), so that an update never resets one (rule-requests.ts).
   */
  readonly sentInUpdates: boolean;
  /** Carried by the API type (a variant), not sent as a field. */
  readonly viaType: boolean;
  /**
   * Part of the identity only when written: an optional field that cannot
   * change in place and that a rule may leave to the service (the size unit
   * of `file_upload_size_limit`). Left out, any live value stands.
   */
  readonly writtenIdentity: boolean;
}

export interface RuleKind<Y extends string = string, V extends Readonly<Record<string, FieldValue | undefined>> = Readonly<Record<string, FieldValue | undefined>>> {
  readonly yaml: Y;
  readonly api: string;
  readonly description: string;
  readonly point: PointUse;
  readonly onePerScope: boolean;
  readonly fields: readonly KindField[];
  readonly variants: readonly { readonly api: string; readonly fields: Readonly<Record<string, FieldValue>> }[];
  readonly exactlyOne: readonly string[];
  readonly checks: readonly KindCheck[];
  readonly undeletable?: Undeletable;
  readonly createConstants: Readonly<Record<string, string>>;
  readonly needsRight?: string;
  /** Old key → its new name (see RuleKindSpec.renamed). */
  readonly renamed: Readonly<Record<string, string>>;
  readonly evidence?: KindEvidence;
  readonly unevaluable?: string;
  readonly describe: (fields: V) => string;
  readonly examples: readonly Readonly<Record<string, unknown>>[];
}

export function defineRuleKind<const Y extends string, F extends FieldFactories>(spec: RuleKindSpec<Y, F>): RuleKind<Y, FieldValues<F>> {
  const viaType = new Set((spec.variants ?? []).flatMap((variant) => Object.keys(variant.fields)));
  const updatable = new Set<string>(spec.updatable);
  const carried = new Set<string>(spec.carriedByUpdates ?? []);
  const exactlyOne = new Set<string>(spec.exactlyOne ?? []);
  const fields = Object.entries(spec.fields).map(([name, factory]): KindField => {
    const field = factory(name);
    const identity = !updatable.has(name) && !viaType.has(name) && !field.local;
    return {
      ...field,
      name,
      updatable: updatable.has(name),
      sentInUpdates: (updatable.has(name) || carried.has(name)) && !viaType.has(name) && !field.local,
      viaType: viaType.has(name),
      writtenIdentity: identity && !field.required && field.absentIs === undefined && !exactlyOne.has(name),
    };
  });
  for (const name of [...updatable, ...carried]) {
    if (!(name in spec.fields)) throw new InternalError(`rule kind ${spec.yaml}: updated field ${name} is not one of its fields`);
  }
  for (const [old, name] of Object.entries(spec.renamed ?? {})) {
    if (!(name in spec.fields) || old in spec.fields) throw new InternalError(`rule kind ${spec.yaml}: ${old} must be renamed to one of its fields, not be one`);
  }
  return {
    yaml: spec.yaml,
    api: spec.api,
    description: spec.description,
    point: spec.point,
    onePerScope: spec.onePerScope ?? false,
    fields,
    variants: (spec.variants ?? []) as RuleKind['variants'],
    exactlyOne: spec.exactlyOne ?? [],
    checks: spec.checks ?? [],
    ...(spec.undeletable ? { undeletable: spec.undeletable } : {}),
    createConstants: spec.createConstants ?? {},
    ...(spec.needsRight ? { needsRight: spec.needsRight } : {}),
    renamed: spec.renamed ?? {},
    ...(spec.evidence ? { evidence: spec.evidence } : {}),
    ...(spec.unevaluable ? { unevaluable: spec.unevaluable } : {}),
    describe: spec.describe,
    examples: spec.examples,
  };
}
