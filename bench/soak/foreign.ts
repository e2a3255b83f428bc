/**
 * Objects "made in the console" or by another tool, planted before the soak
 * starts: Rampart must never delete or change them. Their values never collide
 * with what the soak's policies declare (other pools, other addresses).
 */
import type { EmulatorControl } from '../../src/emulator/index.js';

export function plantForeignObjects(control: EmulatorControl, clients: readonly number[]): { hintIds: number[]; ipIds: number[] } {
  const hintIds: number[] = [];
  const ipIds: number[] = [];
  for (const clientid of clients) {
    const instance = { point: ['instance'], type: 'equal', value: '99' };
    hintIds.push(
      control.seedHint({ clientid, type: 'vpatch', action: [instance, { point: ['path', 0], type: 'equal', value: 'console' }], point: ['header', 'HOST'], attack_type: 'any', comment: 'made in the console' }).id,
      control.seedHint({ clientid, type: 'regex', action: [instance], point: ['header', 'USER-AGENT'], attack_type: 'scanner', regex: '.*other.*', regex_id: 1, comment: 'other tool [managed-by:other-team]' }).id,
      control.seedHint({ clientid, type: 'service_mode', action: [{ point: ['instance'], type: 'equal', value: '1' }, { point: ['uri'], type: 'equal', value: '/console' }], mode: 'off' }).id,
      // A type Rampart has no kind for, even with our mark: never touched.
      control.seedHint({ clientid, type: 'attack_rechecker', action: [{ point: ['instance'], type: 'equal', value: '1' }], comment: 'rechecker [managed-by:rampart]' }).id,
    );
    ipIds.push(
      control.seedIpObject({ clientid, list: 'black', rule_type: 'ip_range', values: ['192.168.50.1/32'], pools: [1], reason: 'console' }).id,
      control.seedIpObject({ clientid, list: 'white', rule_type: 'ip_range', values: ['192.168.60.0/24'], pools: [2], reason: 'office [managed-by:other-team]' }).id,
      control.seedIpObject({ clientid, list: 'black', rule_type: 'country', values: ['KP', 'IR'], pools: [99], reason: 'console' }).id,
      control.seedIpObject({ clientid, list: 'gray', rule_type: 'proxy_type', values: ['TOR'], pools: [98] }).id,
    );
  }
  return { hintIds, ipIds };
}
