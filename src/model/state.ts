import type { IpApiName } from './ip-list-apis.js';
import type { ClassObjects } from './object-class.js';

/**
 * What the policy files declare, after validation and normalization: each
 * object class's objects under its field (`rules`, `ipEntries`; object-class.ts).
 */
export type DesiredState = ClassObjects<'desired'> & {
  /** Every client the policies name; only these are read and reconciled. */
  readonly clients: readonly number[];
  /** Where each client is declared (`client:` of each file), for errors about an account. */
  readonly clientSources?: readonly ClientSource[];
  /** Where each application is named (`application:` of each file, `all` left out), to check the account has it. */
  readonly applicationSources?: readonly ApplicationSource[];
  /** The IP-list API the policies name (`ip_api:`, every file that names it agreeing), and the first file that does. */
  readonly ipApi?: IpApiSource;
};

export interface IpApiSource extends ClientSource {
  readonly ipApi: IpApiName;
}

/** `application: 7` of a file of `client`: where an application of the account is named. */
export interface ApplicationSource extends ClientSource {
  readonly application: number;
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

/** What the API lists for the desired state's clients, normalized (rules of managed kinds only: foreign types are dropped on read). */
export type LiveState = ClassObjects<'live'> & {
  readonly clients: readonly number[];
  /**
   * By client, when the latest of its listed rules and IP-list objects last
   * changed (unix seconds), where the listings say: hits recorded before it
   * saw another configuration (impact/agreement.ts).
   */
  readonly changedAt?: ReadonlyMap<number, number>;
};
