import type { DesiredIpEntry, IpListName, IpRuleType, LiveIpEntry } from './ip.js';
import type { DesiredRule, LiveRule } from './rule.js';

/**
 * One API call's worth of change. A plan is an ordered list of these;
 * `summary` counts objects (entries), so a grouped create counts each value.
 */
export type Change = CreateRule | DeleteRule | CreateIp | DeleteIp;

export interface CreateRule {
  readonly action: 'create';
  readonly kind: 'rule';
  readonly rule: DesiredRule;
  /** Ids of owned live rules this create replaces; their deletes come after it. */
  readonly replaces?: readonly number[];
}

export interface DeleteRule {
  readonly action: 'delete';
  readonly kind: 'rule';
  readonly rule: LiveRule;
  readonly reason: 'not-declared' | 'duplicate' | 'replaced';
}

export interface CreateIp {
  readonly action: 'create';
  readonly kind: 'ip';
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  /** One value for ip_range; one or more for the other types. */
  readonly entries: readonly DesiredIpEntry[];
  /** Overwrite: only to replace objects we own (`force: true`). */
  readonly force: boolean;
}

export interface DeleteIp {
  readonly action: 'delete';
  readonly kind: 'ip';
  readonly client: number;
  /** Every entry of every object the call deletes, grouped under their ids. */
  readonly entries: readonly LiveIpEntry[];
  readonly reason: 'not-declared' | 'duplicate' | 'replaced';
}
