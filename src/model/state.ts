import type { DesiredIpEntry, LiveIpEntry } from './ip.js';
import type { DesiredRule, LiveRule } from './rule.js';

/** What the policy files declare, after validation and normalization. */
export interface DesiredState {
  /** Every client the policies name; only these are read and reconciled. */
  readonly clients: readonly number[];
  readonly rules: readonly DesiredRule[];
  readonly ipEntries: readonly DesiredIpEntry[];
}

/** What the API lists for the desired state's clients, normalized. */
export interface LiveState {
  readonly clients: readonly number[];
  /** Managed rule types only; foreign types are dropped on read. */
  readonly rules: readonly LiveRule[];
  readonly ipEntries: readonly LiveIpEntry[];
}
