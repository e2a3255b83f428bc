/** Whose objects an export writes: the same for every class (the owner mark of a comment or reason). */
import type { ExportOptions, SkipReason } from './types.js';

type OwnershipOptions = Pick<ExportOptions, 'owner' | 'excludeOwned'>;

/** Why an object with this owner mark is left out; undefined when it is exported. */
export function ownershipSkip(owner: string | undefined, options: OwnershipOptions): { reason: SkipReason; detail: string } | undefined {
  if (owner === undefined) return undefined;
  if (owner === options.owner) {
    return options.excludeOwned
      ? { reason: 'owned', detail: `managed by "${owner}" (left out by --exclude-owned: already in your policies)` }
      : undefined;
  }
  return { reason: 'other-owner', detail: `managed by another owner, "${owner}" (export with --owner ${owner} to take it over)` };
}

/** Which of two copies a policy keeps: owned objects first (their comment and reason must match exactly), then the oldest. */
export function preference(a: { owner?: string; id: number }, b: { owner?: string; id: number }): number {
  return Number(a.owner === undefined) - Number(b.owner === undefined) || a.id - b.id;
}
