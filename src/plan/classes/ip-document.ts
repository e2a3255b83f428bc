/** An IP entry's changes as the plan document carries them: the object a call writes or deletes, with its values. */
import type { DeleteReason } from '../../model/delete-reason.js';
import type { IpEntry, IpListName, IpRuleType, LiveIpEntry } from '../../model/ip.js';
import { applicationOf } from '../application.js';
import type { Application, PlanChangeBase } from '../change-document.js';

/** An IP-list object: one create request, or what a deleted object held. */
export interface PlanIpObject {
  readonly list: IpListName;
  readonly rule_type: IpRuleType;
  readonly pools: readonly number[];
  /** Unix seconds; 33223139044 means never. */
  readonly expires_at: number;
  readonly reason?: string;
  /** Sorted. */
  readonly values: readonly string[];
}

/** The attributes an IP object had before a forced create moved its values out. */
export interface PlanIpBefore {
  readonly id: number;
  /** Unix seconds; 33223139044 means never. */
  readonly expires_at: number;
  readonly reason?: string;
}

/** A policy line that declared some of a create's values. */
export interface PlanSource {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  readonly values: readonly string[];
}

export interface PlanCreateIp extends PlanChangeBase {
  readonly action: 'create';
  readonly kind: 'ip';
  /** The first declaring line (all of them are in `sources`). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** `true` only to move values out of objects Rampart owns (an update or a rescue). */
  readonly force: boolean;
  /** Owned object ids the forced values move out of. */
  readonly replaces?: readonly number[];
  /** What each of those objects held before (same order as `replaces`): the old side of old → new. */
  readonly before?: readonly PlanIpBefore[];
  readonly object: PlanIpObject;
  readonly sources: readonly PlanSource[];
}

export interface PlanDeletedIpObject {
  readonly id: number;
  readonly reason: Exclude<DeleteReason, 'replaced'>;
  readonly application: Application;
  /** Values the object held before the plan. */
  readonly size: number;
  /** `values`: what the delete removes (after earlier creates moved `moved` out). */
  readonly object: PlanIpObject;
  readonly moved?: readonly string[];
}

export interface PlanDeleteIp extends PlanChangeBase {
  readonly action: 'delete';
  readonly kind: 'ip';
  /** Every object id of the client this one call deletes, sorted, unique. */
  readonly ids: readonly number[];
  readonly objects: readonly PlanDeletedIpObject[];
}

/** Adoption of unmanaged IP values: one forced create in their own list, with the owner mark. */
export interface PlanAdoptIp extends PlanChangeBase {
  readonly action: 'adopt';
  readonly kind: 'ip';
  /** The unmanaged objects the values are taken from. */
  readonly ids: readonly number[];
  /** The first declaring line (all of them are in `sources`). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** Attributes that change besides the mark (`expires`, `reason`); often none. */
  readonly fields: readonly string[];
  /** When `fields` is not empty: what each object in `ids` held (same order), the old side of old → new. */
  readonly before?: readonly PlanIpBefore[];
  readonly object: PlanIpObject;
  readonly sources: readonly PlanSource[];
}

export type PlanIpChange = PlanCreateIp | PlanDeleteIp | PlanAdoptIp;

/** The object several entries sharing one object's attributes make up. */
export function toPlanIpObject(
  first: Pick<IpEntry, 'list' | 'ruleType' | 'pools' | 'expiresAt' | 'reason'>,
  values: readonly string[]): PlanIpObject {
  // Two literals, not a spread of an optional member: a plan makes one per IP object it writes or deletes.
  const { list, ruleType: rule_type, pools, expiresAt: expires_at, reason } = first;
  return reason !== undefined && reason !== ''
    ? { list, rule_type, pools, expires_at, reason, values }
    : { list, rule_type, pools, expires_at, values };
}

export function poolsApplication(pools: readonly number[]): Application {
  return applicationOf(pools);
}

/** The applications of several objects together (a batched delete). */
export function unionApplication(entries: readonly LiveIpEntry[]): Application {
  return applicationOf(entries.flatMap((e) => e.pools));
}
