/**
 * What every class's calls run with and answer (apply/classes/*-calls.ts run
 * one plan change as API calls: the write itself, plus the check that follows
 * a write whose outcome is unknown, so a create that went through is not
 * repeated).
 */
import type { ServiceApi } from '../api/service.js';
import type { FieldRewrite } from '../model/rewrites.js';
import type { WriteJournal } from '../live/write-journal.js';

export interface ExecuteContext {
  readonly api: ServiceApi;
  readonly owner: string;
  readonly stopRetrying?: AbortSignal;
  readonly journal?: WriteJournal;
  /** How long to look for a create whose outcome is unknown before making it again. */
  readonly verifyTimeoutMs: number;
  readonly verifyIntervalMs: number;
}

/** Creates sent for one change whose answers all left the outcome unknown. */
export const MAX_CREATE_ATTEMPTS = 4;

export interface Outcome {
  readonly status: 'applied' | 'already-done';
  readonly id?: number;
  readonly detail?: string;
  /** Fields the service stored differently from what was sent, read from its answer. */
  readonly rewrites?: readonly FieldRewrite[];
  /** Ids of the IP objects a create made, where the answer lists them. */
  readonly ids?: readonly number[];
  /** A created regex rule's `regex_id`, for the `ignore_regex` rules that name it. */
  readonly regexId?: number;
}
