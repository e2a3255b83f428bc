/**
 * The values of one IP-list entry as the model's desired entries. An entry
 * often lists hundreds of addresses that share everything but the address:
 * each value holds its address, where it is written, and the entry's shared
 * part (`IpDeclaration`, model/shared-ip-value.ts).
 */
import type { DesiredIpEntry, IpEntry } from '../../model/ip.js';
import { SharedIpValue, type SharedIpAttributes } from '../../model/shared-ip-value.js';
import type { Source } from '../../model/source.js';
import { pathLabel, type Path } from '../source-map.js';

/** What the values of one entry share. */
export interface IpDeclaration extends SharedIpAttributes {
  readonly file: string;
  /** Where the values are listed: `['ip_lists', 'deny', 3, 'ips']`. */
  readonly path: Path;
}

export class DeclaredIpValue extends SharedIpValue<IpDeclaration> implements DesiredIpEntry {
  /** Its index in the entry's values. */
  readonly #index: number;
  readonly #line: number;
  readonly #col: number;

  constructor(value: string, declaration: IpDeclaration, index: number, at: { readonly line: number; readonly col: number }) {
    super(value, declaration);
    this.#index = index;
    this.#line = at.line;
    this.#col = at.col;
  }

  /** Made when asked for: a plan asks for the sources of its changes only. */
  get source(): Source {
    const { file, path } = this.shared;
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
