/**
 * The ids of the hits listed at one second, compared by their two parts.
 * A window read asks it once per hit; a key made per hit (`index/id`) lived
 * for a whole slice, so V8 moved 100k of them to the old generation, where
 * they stayed as garbage until the next full collection (a third of what
 * `--impact` promoted over 100k hits). Most seconds hold one hit: that one is
 * kept without a table.
 */
type IdPart = string | number;

export class SecondIds {
  private firstIndex: string | undefined;
  private firstId: string | undefined;
  /** From a second hit on: index → ids. */
  private more: Map<string, Set<string>> | undefined;

  /** Adds the id; false if it was there already. */
  add(id: readonly [IdPart, IdPart]): boolean {
    const index = String(id[0]);
    const hit = String(id[1]);
    if (this.firstIndex === undefined) {
      this.firstIndex = index;
      this.firstId = hit;
      return true;
    }
    if (this.has(id)) return false;
    this.more ??= new Map();
    let ids = this.more.get(index);
    if (!ids) this.more.set(index, ids = new Set());
    ids.add(hit);
    return true;
  }

  has(id: readonly [IdPart, IdPart]): boolean {
    const index = String(id[0]);
    const hit = String(id[1]);
    return (this.firstIndex === index && this.firstId === hit) || this.more?.get(index)?.has(hit) === true;
  }

  clear(): void {
    this.firstIndex = this.firstId = undefined;
    this.more = undefined;
  }
}
