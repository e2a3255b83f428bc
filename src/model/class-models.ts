/**
 * What the model holds of each object class, by the `kind` its changes carry:
 * the one place that names them all. Types only, below every table keyed by
 * class (class-table.ts, object-class.ts), so each can import them downward.
 */
import type { DesiredIpEntry, IpEntry, LiveIpEntry } from './ip.js';
import type { IpChange } from './ip-change.js';
import type { DesiredRule, LiveRule, Rule } from './rule.js';
import type { RuleChange } from './rule-change.js';

/** What the model holds of one class. */
export interface ClassModel<Object, Desired extends Object, Live extends Object, Change, Field extends string> {
  /** What a declared and a listed object share: what code reading either (the impact, the digests) sees. */
  readonly object: Object;
  readonly desired: Desired;
  readonly live: Live;
  readonly change: Change;
  /** The field of the desired and live state that lists the class's objects. */
  readonly field: Field;
}

export interface ObjectClassModels {
  readonly rule: ClassModel<Rule, DesiredRule, LiveRule, RuleChange, 'rules'>;
  readonly ip: ClassModel<IpEntry, DesiredIpEntry, LiveIpEntry, IpChange, 'ipEntries'>;
}

export type ObjectClass = keyof ObjectClassModels;
