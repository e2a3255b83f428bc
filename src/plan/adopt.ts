/**
 * Taking over what already exists: a pure pass before the diff that pairs
 * declarations with the unmanaged live objects (no owner mark at all) that
 * already provide them, like recognize.ts and references.ts.
 *
 * - A declaration equal to an unmanaged object (its identity and values; the
 *   comment or reason may differ) is satisfied by it. Without `--adopt` it is
 *   reported once in the plan's `unmanaged` list (the renderers print one
 *   line, not one per object); with `--adopt` it becomes an `adopt` change:
 *   the owner mark written onto the object in place, never a create or delete.
 * - An unmanaged object that stands in the way of a declaration is a conflict:
 *   a one-per-scope rule kind (the registry says which) held with other
 *   values, or a value held in another list for overlapping applications.
 *   Without `--adopt` planning stops on it; with `--adopt` the object is
 *   adopted and changed (one PUT), or its value moved to the declared list.
 *
 * Both paired sides leave the diff's input, so the diff (diff-rules.ts,
 * diff-ip.ts) sees only what Rampart owns and what is still to be made.
 * Objects carrying another owner's mark are never paired, and never adopted;
 * one holding a one-per-scope declaration's scope with other values is a
 * conflict even with `--adopt` (a second rule there would be a duplicate).
 * Only where no owned object serves the declaration: an owned copy wins.
 */
import type { AdoptRule } from '../model/rule-change.js';
import type { LiveIpEntry } from '../model/ip.js';
import { changedFields, fieldValues, identityDiffers, kindOf, ruleKey, type DesiredRule, type LiveRule } from '../model/rule.js';
import { adoptIpEntries, linkMoves } from './adopt-ip.js';
import type { Adoption, AdoptionInput, Conflict, UnmanagedMatch } from './adoption.js';
import { differences } from './diff-rules.js';

export function adoptUnmanaged(input: AdoptionInput): Adoption {
  const rules = adoptRules(input);
  const ip = adoptIpEntries(input);
  return {
    desiredRules: rules.desired,
    liveRules: rules.live,
    desiredIp: ip.desired,
    liveIp: ip.live,
    changes: [...rules.changes, ...ip.changes],
    unmanaged: [...rules.unmanaged, ...ip.unmanaged],
    conflicts: [...rules.conflicts, ...ip.conflicts],
    moves: ip.moves,
    claimed: new Set<LiveRule | LiveIpEntry>([...rules.claimed, ...ip.claimed]),
  };
}

export { linkMoves };

interface RulePass {
  desired: DesiredRule[];
  live: LiveRule[];
  changes: AdoptRule[];
  unmanaged: UnmanagedMatch[];
  conflicts: Conflict[];
  claimed: ReadonlySet<LiveRule>;
}

function adoptRules({ desiredRules, liveRules, owner, adopt }: AdoptionInput): RulePass {
  // An account Rampart manages entirely costs nothing here.
  if (liveRules.every((r) => r.owner === owner)) {
    return { desired: [...desiredRules], live: [...liveRules], changes: [], unmanaged: [], conflicts: [], claimed: new Set() };
  }
  const ownedKeys = new Set<string>();
  const unmanagedByKey = new Map<string, LiveRule[]>();
  const foreignByKey = new Map<string, LiveRule[]>();
  for (const rule of liveRules) {
    if (rule.owner === owner) {
      ownedKeys.add(ruleKey(rule));
      continue;
    }
    const byKey = rule.owner === undefined ? unmanagedByKey : foreignByKey;
    const key = ruleKey(rule);
    const list = byKey.get(key);
    if (list) list.push(rule);
    else byKey.set(key, [rule]);
  }
  const paired = new Set<LiveRule>();
  // Unmanaged copies of a declaration an owned rule serves: declared still, so never "left unmanaged" (left-behind.ts).
  const shadowed = new Set<LiveRule>();
  const pass: RulePass = { desired: [], live: [], changes: [], unmanaged: [], conflicts: [], claimed: new Set() };
  // Valid policies declare a rule once, so no two declarations compete for one rule.
  for (const want of desiredRules) {
    const key = ruleKey(want);
    const listed = unmanagedByKey.get(key)?.filter((r) => !identityDiffers(want, r));
    if (listed && ownedKeys.has(key)) for (const r of listed) if (changedFields(r, want).length === 0) shadowed.add(r);
    const candidates = ownedKeys.has(key) || !listed ? [] : listed.filter((r) => !paired.has(r)).sort((a, b) => a.id - b.id);
    const equal = candidates.find((r) => changedFields(r, want).length === 0);
    // One rule per scope: a second one would be a duplicate the service resolves on its own.
    const blocking = !equal && kindOf(want).onePerScope ? candidates[0] : undefined;
    const found = equal ?? blocking;
    if (!found) {
      const rival = kindOf(want).onePerScope && !ownedKeys.has(key) ? foreignRival(want, foreignByKey.get(key)?.filter((r) => !identityDiffers(want, r))) : undefined;
      if (rival) pass.conflicts.push(foreignConflict(want, rival));
      else pass.desired.push(want);
      continue;
    }
    paired.add(found);
    if (adopt) {
      pass.changes.push({ action: 'adopt', kind: 'rule', rule: want, live: found, fields: differences(want, found) });
    } else if (equal) {
      pass.unmanaged.push({ kind: 'rule', client: want.client, source: want.source, id: found.id });
    } else {
      pass.conflicts.push({
        kind: 'rule', client: want.client, source: want.source, id: found.id,
        message: `the service keeps one ${want.kind} rule per scope, and unmanaged rule id ${found.id} holds this scope with ` +
          `other values (${changedFields(found, want).map((f) => `${f}: ${String(fieldValues(found)[f])}`).join(', ')}); ` +
          'creating another would leave two. Adopt it (--adopt: it is taken over and updated in place) or delete it in the console',
      });
    }
  }
  pass.live = liveRules.filter((r) => !paired.has(r));
  pass.claimed = new Set([...paired, ...shadowed]);
  return pass;
}

/** Another owner's rule holding a one-per-scope declaration's scope with other values (an equal one satisfies it: diff-rules.ts). */
function foreignRival(want: DesiredRule, foreign: readonly LiveRule[] | undefined): LiveRule | undefined {
  if (!foreign || foreign.some((r) => changedFields(r, want).length === 0)) return undefined;
  return [...foreign].sort((a, b) => a.id - b.id)[0];
}

/** Never adopted, and a second rule in its scope would be a duplicate the service resolves on its own: planning stops. */
function foreignConflict(want: DesiredRule, rival: LiveRule): Conflict {
  return {
    kind: 'rule', client: want.client, source: want.source, id: rival.id,
    message: `the service keeps one ${want.kind} rule per scope, and rule id ${rival.id} of owner "${String(rival.owner)}" holds this scope with ` +
      `other values (${changedFields(rival, want).map((f) => `${f}: ${String(fieldValues(rival)[f])}`).join(', ')}); creating another would leave two. ` +
      'Another owner\'s rule is never taken over (not even with --adopt): change it where it is managed, or drop this declaration',
  };
}
