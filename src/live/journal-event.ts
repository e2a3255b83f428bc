/**
 * One remembered write, as a line of the journal file (journal-file.ts). Each
 * class names its events and where their objects sit (its `JournalSide`,
 * live/classes): `rule-created` holds its `rule`, `ip-created` its `entries`,
 * as journals have always been written, so one left by an earlier Rampart
 * still reads.
 */
export interface JournalEvent {
  readonly kind: string;
  readonly at: number;
  /** A delete's ids. */
  readonly ids?: readonly number[];
  /** An abandoned create's write keys. */
  readonly keys?: readonly string[];
  /** A create's objects, under the field its class's events use. */
  readonly [field: string]: unknown;
}

/** The create the intent announced was refused: it did not happen (write keys, model/fingerprint.ts). */
export const CREATE_ABANDONED = 'create-abandoned';

/** The writes a class's journal side names an event for. */
export type JournalWrite = 'created' | 'create-intent' | 'deleted';
