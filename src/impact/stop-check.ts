/**
 * The impact's evaluation is one synchronous pass over the recorded requests
 * (100k of them in the bench): no timer runs until it returns, so `--timeout`
 * and a stop are asked for between requests (api/deadline.ts).
 */
import { throwIfPastDeadline } from '../api/deadline.js';

/** Requests between two looks at the clock: a look costs more than a request's step. */
const STEPS_PER_CHECK = 64;

export class StopCheck {
  private steps = 0;

  constructor(private readonly signal?: AbortSignal) {}

  /** One request (or entry) evaluated; throws the signal's reason once it is stopped or past its deadline. */
  step(): void {
    if (++this.steps % STEPS_PER_CHECK === 0) this.now();
  }

  /** Looks now: before a pass, and after one. */
  now(): void {
    throwIfPastDeadline(this.signal, 'the impact\'s evaluation of the recorded requests');
  }
}
