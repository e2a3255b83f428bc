/**
 * Every account has default abuse controls the service made itself (brute
 * force, BOLA, enumeration, forced browsing): account-wide, in monitoring
 * mode, without an owner mark. They can be edited; a client cannot delete
 * them. With the `defaultControls` switch on, an account gets them the first
 * time a call names it, as if they had always been there.
 */
import type { EmulatorCore } from '../core.js';
import { seedHint } from '../seed.js';
import { CONTROL_ATTACK_TYPES } from './controls.js';

const DEFAULTS: readonly { type: string; comment: string; threshold: { count: number; period: number } }[] = [
  { type: 'brute', comment: 'Default brute force protection', threshold: { count: 30, period: 30 } },
  { type: 'bola', comment: 'Default BOLA protection', threshold: { count: 30, period: 30 } },
  { type: 'enum', comment: 'Default enumeration protection', threshold: { count: 30, period: 30 } },
  { type: 'forced_browsing', comment: 'Default forced browsing protection', threshold: { count: 30, period: 30 } },
];

/** Accounts known to hold their default controls, so the state is scanned once per account. */
const equipped = new WeakMap<EmulatorCore, Set<number>>();

export function ensureDefaultControls(core: EmulatorCore, clients: readonly number[]): void {
  if (!core.config.defaultControls) return;
  let known = equipped.get(core);
  if (!known) equipped.set(core, (known = new Set()));
  for (const clientid of clients) {
    if (known.has(clientid)) continue;
    known.add(clientid);
    if ([...core.state.hints.values()].some((stored) => stored.serviceMade && stored.record.clientid === clientid)) continue;
    for (const control of DEFAULTS) {
      const hint = seedHint(core, {
        clientid, type: control.type, mode: 'monitoring', comment: control.comment, threshold: control.threshold,
        reaction: { block_by_session: 0, block_by_ip: 0, graylist_by_ip: 3600 },
        ...(control.type === 'forced_browsing' ? {} : { enumerated_parameters: { mode: 'regexp', name_regexps: [''], value_regexps: [''], additional_parameters: false, plain_parameters: false } }),
        attack_type: CONTROL_ATTACK_TYPES[control.type] ?? null, mitigation: control.type,
      });
      const stored = core.state.hints.get(hint.id);
      if (stored) stored.serviceMade = true;
    }
  }
}
