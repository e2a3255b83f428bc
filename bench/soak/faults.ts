/**
 * Random faults for one soak iteration, scripted on the emulator: rate limits
 * with Retry-After, locked rule writes, 503s, connection resets before and
 * after a write went through, answers lost after the write with any 5xx, and
 * listing lag switched on and off. (A listing shifting between page calls
 * deletes whatever object it meets, the foreign ones the soak counts too; its
 * own test is test/integration/plan/shifting-listing.test.ts.)
 */
import type { EmulatorControl, FaultSpec } from '../../src/emulator/index.js';
import type { Prng } from './prng.js';

const LISTINGS = ['POST /v1/objects/hint', 'GET /v4/ip_rules'];
const WRITES = ['POST /v1/objects/hint/create', 'PUT /v3/hint/{id}', 'POST /v1/objects/hint/delete', 'POST /v4/ip_rules', 'DELETE /v4/ip_rules'];
const ANY = [...LISTINGS, ...WRITES, '*'];

export type FaultLabel = '429' | '423' | '503' | 'reset' | 'reset-after-write' | 'status-after-write' | 'lag-on' | 'lag-off';

/** The lags the soak switches between; the real service shows about 3 s. */
export const SOAK_LAGS_MS = [1500, 3000] as const;

export function randomFault(random: Prng): { label: FaultLabel; spec: FaultSpec } {
  const roll = random.next();
  if (roll < 0.2) {
    return { label: '429', spec: { route: random.pick(ANY), kind: 'status', status: 429, retryAfterSeconds: random.pick([0, 1]), count: random.int(1, 2) } };
  }
  if (roll < 0.35) {
    return { label: '423', spec: { route: random.pick(['POST /v1/objects/hint/create', 'POST /v1/objects/hint/delete']), kind: 'status', status: 423, count: random.int(1, 3) } };
  }
  if (roll < 0.5) return { label: '503', spec: { route: random.pick(ANY), kind: 'status', status: 503, count: random.int(1, 3) } };
  if (roll < 0.65) return { label: 'reset', spec: { route: random.pick(ANY), kind: 'reset', count: random.int(1, 2) } };
  if (roll < 0.75) {
    // The write went through, the answer is lost behind a gateway: any 5xx.
    return { label: 'status-after-write', spec: { route: random.pick(WRITES), kind: 'status-after-write', status: random.pick([500, 502, 503, 504]), count: random.int(1, 2) } };
  }
  return { label: 'reset-after-write', spec: { route: random.pick(WRITES), kind: 'reset-after-write', count: 1 } };
}

/**
 * Replaces the emulator's faults with 0–3 new ones and sometimes flips the
 * listing lag. Returns the labels of what was injected.
 */
export function injectFaults(control: EmulatorControl, random: Prng): FaultLabel[] {
  control.clearFaults();
  const labels: FaultLabel[] = [];
  for (let i = random.int(0, 3); i > 0; i--) {
    const { label, spec } = randomFault(random);
    control.addFault(spec);
    labels.push(label);
  }
  if (random.chance(0.2)) {
    const lagged = control.config().listingLagMs > 0;
    control.setConfig({ listingLagMs: lagged ? 0 : random.pick(SOAK_LAGS_MS) });
    labels.push(lagged ? 'lag-off' : 'lag-on');
  }
  return labels;
}
