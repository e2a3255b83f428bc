import { describe, expect, it } from 'vitest';
import type { DeleteReason } from '../../../src/model/delete-reason.js';
import type { ObjectClass } from '../../../src/model/object-class.js';
import { diffKeyed, type KeyedDiff } from '../../../src/plan/diff-keyed.js';

interface Declared { client: number; key: string; text: string }
interface Listed { id: number; client: number; key: string; text: string; owner?: string }
type Made = string;

const TOY = 'toy' as ObjectClass;

const KEYED: KeyedDiff<Declared, Listed, Made> = {
  desiredKey: (o) => o.key,
  liveKey: (o) => o.key,
  desiredSource: (o) => ({ file: 'toys.yaml', line: 1, col: 1, name: o.key }),
  client: (o) => o.client,
  id: (o) => o.id,
  owned: (o, owner) => o.owner === owner,
  same: (d, l) => d.text === l.text,
  create: (d) => `create ${d.key}`,
  update: (d, l) => `update ${d.key} #${l.id}`,
  delete: (l, reason: DeleteReason) => `delete #${l.id} ${reason}`,
};

const declared = (key: string, text = 'x', client = 1): Declared => ({ client, key, text });
/** `owner` null: unmanaged. */
const listed = (id: number, key: string, text = 'x', owner: string | null = 'rampart', client = 1): Listed => ({
  id, client, key, text, ...(owner !== null ? { owner } : {}),
});

const run = (desired: Declared[], live: Listed[]) => diffKeyed(TOY, KEYED, desired, live, 'rampart');

describe('the keyed diff of a class no cross-class pass reads', () => {
  it('creates what is missing, updates what differs, keeps what is the same, deletes what is no longer declared', () => {
    const result = run([declared('a'), declared('b', 'new'), declared('c')], [listed(1, 'b', 'old'), listed(2, 'c'), listed(3, 'd')]);
    expect(result.changes).toEqual(['create a', 'update b #1', 'delete #3 not-declared']);
    expect(result).toMatchObject({ unchanged: 1, owned: 3, unmanaged: [], conflicts: [] });
  });

  it('keeps one object per declaration: the same one first, else the lowest id; the others go as duplicates', () => {
    expect(run([declared('a')], [listed(7, 'a', 'old'), listed(5, 'a', 'x'), listed(6, 'a', 'x')]).changes)
      .toEqual(['delete #6 duplicate', 'delete #7 duplicate']);
    expect(run([declared('a')], [listed(7, 'a', 'old'), listed(5, 'a', 'older')]).changes)
      .toEqual(['update a #5', 'delete #7 duplicate']);
  });

  it('never writes an unmanaged object: the same satisfies the declaration, a different one blocks it', () => {
    const same = run([declared('a')], [listed(1, 'a', 'x', null)]);
    expect(same).toMatchObject({ changes: [], unchanged: 1, owned: 0, conflicts: [] });
    expect(same.unmanaged).toEqual([{ kind: TOY, client: 1, id: 1, source: { file: 'toys.yaml', line: 1, col: 1, name: 'a' } }]);
    const other = run([declared('a')], [listed(1, 'a', 'y', null), listed(2, 'b', 'y', null)]);
    expect(other.changes).toEqual([]);
    expect(other.conflicts).toEqual([expect.objectContaining({ kind: TOY, id: 1, message: expect.stringContaining('unmanaged toy #1') })]);
  });

  it('pairs within a client, treats another owner\'s object as not ours, and diffs a key declared twice once', () => {
    const result = run([declared('a', 'x', 1), declared('a', 'x', 1), declared('a', 'x', 2), declared('b', 'x', 2)], [
      listed(1, 'a', 'x', 'rampart', 2), listed(2, 'a', 'x', 'team-b', 1), listed(3, 'c', 'x', 'team-b', 2),
    ]);
    expect(result.changes).toEqual(['create b']);
    expect(result).toMatchObject({ unchanged: 2, owned: 1 });
    expect(result.unmanaged.map((u) => u.id)).toEqual([2]);
  });
});
