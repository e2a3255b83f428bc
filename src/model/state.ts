import type { DesiredIpEntry, LiveIpEntry } from './ip.js';
import type { DesiredRule, LiveRule } from './rule.js';

/** What the policy files declare, after validation and normalization. */
export interface DesiredState {
  /** Every client the policies name; only these are read and reconciled. */
  readonly clients: readonly number[];
  readonly rules: readonly DesiredRule[];
  readonly ipEntries: readonly DesiredIpEntry[];
  /** Where each client is declared (`client:` of each file), for errors about an account. */
  readonly clientSources?: readonly ClientSource[];
}

export interface ClientSource {
  readonly client: number;
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** `policies/shop.yaml:2:9` (and how many other files name the client), or undefined when unknown. */
export function describeClientSource(state: Pick<DesiredState, 'clientSources'>, client: number): string | undefined {
  const sources = (state.clientSources ?? []).filter((source) => source.client === client);
  const [first] = sources;
  if (!first) return undefined;
  const more = sources.length > 1 ? ` and ${sources.length - 1} more file(s)` : '';
  return `${first.file}:${first.line}:${first.col}${more}`;
}

/** What the API lists for the desired state's clients, normalized. */
export interface LiveState {
  readonly clients: readonly number[];
  /** Managed rule types only; foreign types are dropped on read. */
  readonly rules: readonly LiveRule[];
  readonly ipEntries: readonly LiveIpEntry[];
}
