/**
 * The endpoint half of break-glass: `POST /pause` (guarded by the admin token)
 * pauses this process until `DELETE /pause` or a restart. The pause file
 * (policy/pause.ts) is the durable way, shared by every replica; this one is
 * for when a commit cannot land fast enough.
 */
import { pauseReason, type Pause } from '../policy/pause.js';

export class PauseSwitch {
  private pause: Pause | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  get current(): Pause | undefined {
    return this.pause;
  }

  /** Pauses (or replaces the reason of the pause in effect, keeping its start). */
  set(reason: string): Pause {
    this.pause = { reason: pauseReason(reason), since: this.pause?.since ?? this.now(), by: 'endpoint' };
    return this.pause;
  }

  /** True when a pause was lifted. */
  clear(): boolean {
    const was = this.pause !== undefined;
    this.pause = undefined;
    return was;
  }
}
