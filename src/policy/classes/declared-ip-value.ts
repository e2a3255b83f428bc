/**
 * The values of one IP-list entry as the model's desired entries. An entry
 * often lists hundreds of addresses that share everything but the address:
 * each value holds its address, where it is written, and the entry's shared
 * part (`IpDeclaration`), and reads the rest through getters on the class.
 * As plain objects each value held its own copy of the shared fields and a
 * source object: 176 bytes a value, against 64 (issue 49: 6.4 MB at 50,000
 * values, for as long as a plan or a daemon holds the policies).
 *
 * The shared fields are therefore not own properties: a spread would drop
 * them (`plainIpEntry` makes the plain form), JSON gets the plain form from
 * `toJSON`, and the tests compare entries by that form (test/setup/sources.ts).
 */
import type { DesiredIpEntry, IpEntry, IpListName, IpRuleType } from '../../model/ip.js';
import type { Source } from '../../model/source.js';
import { pathLabel, type Path } from '../source-map.js';

/** What the values of one entry share. */
export interface IpDeclaration {
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  readonly pools: readonly number[];
  readonly expiresAt: number;
  readonly reason: string | undefined;
  readonly file: string;
  /** Where the values are listed: `['ip_lists', 'deny', 3, 'ips']`. */
  readonly path: Path;
}

export class DeclaredIpValue implements DesiredIpEntry {
  readonly #declaration: IpDeclaration;
  /** Its index in the entry's values. */
  readonly #index: number;
  readonly #line: number;
  readonly #col: number;

  constructor(readonly value: string, declaration: IpDeclaration, index: number, at: { readonly line: number; readonly col: number }) {
    this.#declaration = declaration;
    this.#index = index;
    this.#line = at.line;
    this.#col = at.col;
  }

  get client(): number {
    return this.#declaration.client;
  }

  get list(): IpListName {
    return this.#declaration.list;
  }

  get ruleType(): IpRuleType {
    return this.#declaration.ruleType;
  }

  get pools(): readonly number[] {
    return this.#declaration.pools;
  }

  get expiresAt(): number {
    return this.#declaration.expiresAt;
  }

  get reason(): string | undefined {
    return this.#declaration.reason;
  }

  /** Made when asked for: a plan asks for the sources of its changes only. */
  get source(): Source {
    const { file, path } = this.#declaration;
    return { file, line: this.#line, col: this.#col, name: pathLabel([...path, this.#index]) };
  }

  /** What JSON, logs and the tests see: the plain entry, its members in the order a plain one has them. */
  toJSON(): IpEntry & { readonly source: Source } {
    const { client, list, ruleType, value, pools, expiresAt, reason, source } = this;
    return reason === undefined
      ? { client, list, ruleType, value, pools, expiresAt, source }
      : { client, list, ruleType, value, pools, expiresAt, reason, source };
  }
}
