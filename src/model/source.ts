/** Where a desired object was declared, kept from parse to plan: a rule, an IP entry, any class. */
export interface Source {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** Rule name, or a label such as `ip_lists.deny[0]` for IP entries. */
  readonly name: string;
}
