import type { DesiredState, LiveState } from '../../../src/model/state.js';
import {
  desiredIp, desiredIps, desiredRule, liveObject, liveRule, ruleFields, withFields, type IpFields,
} from './builders.js';

const JAN_2027 = Date.UTC(2027, 0, 31) / 1000;
const OTHER = 'policies/acme: eu, all.yaml';

/**
 * A plan with every change type: rule create, replace (point change, paired by
 * the mark's name) and its delete, update in place (comment change), rule
 * delete (undeclared, duplicate), unmanaged rule satisfying one,
 * IP creates (subnets, a grouped create), forced IP update, grouped object
 * shrink (move-first then delete), unmanaged conflict, undeclared and duplicate
 * IP deletes, two clients, account-wide entries, text that needs escaping.
 */
export function everyChange(): { desired: DesiredState; live: LiveState } {
  const vpatch = ruleFields('vpatch');
  const regex = { ...ruleFields('regex'), comment: 'flags a known scanner' };
  const mode = ruleFields('mode', 'all');
  const otherRegex = withFields(ruleFields('regex', 7, '-old'), { attack: 'xss' });
  const console = ruleFields('vpatch', 9);
  const deny: IpFields = { ruleType: 'ip_range', reason: 'scanner farm' };
  const countries: IpFields = { ruleType: 'country' };
  const office: IpFields = { ruleType: 'ip_range', list: 'white', reason: 'office <HQ> | "main", 50%' };
  const proxies: IpFields = { ruleType: 'proxy_type', list: 'gray', pools: [0], expiresAt: JAN_2027 };

  const desired: DesiredState = {
    clients: [10042, 20001],
    rules: [
      desiredRule(vpatch, 'block-legacy-admin', 8),
      desiredRule(regex, 'curltool-scanner', 14),
      desiredRule(mode, 'admin-blocking', 20),
      desiredRule(console, 'console-made', 24),
    ],
    ipEntries: [
      ...desiredIps(['203.0.113.0/24', '198.51.100.7/32'], deny, 30, 'ip_lists.deny[0]'),
      ...desiredIps(['KP', 'RU'], countries, 33, 'ip_lists.deny[1]'),
      desiredIp('192.0.2.10/32', office, 36, 'ip_lists.allow[0]'),
      desiredIp('TOR', { ruleType: 'proxy_type', list: 'gray' }, 39, 'ip_lists.gray[0]'),
      ...desiredIps(['VPN', 'PUB'], { ...proxies, client: 20001 }, 5, 'ip_lists.gray[0]').map((e) => ({
        ...e, source: { ...e.source, file: OTHER },
      })),
      { ...desiredIp('SES', { ...proxies, client: 20001 }, 6, 'ip_lists.gray[1]'), source: { file: OTHER, line: 6, col: 5, name: 'ip_lists.gray[1]' } },
    ],
  };
  const live: LiveState = {
    clients: [10042, 20001],
    rules: [
      // Made from block-legacy-admin when it looked at another header: its mark's name pairs it with the new one.
      { ...liveRule(ruleFields('vpatch', 7, '-old'), 550), name: 'block-legacy-admin' },
      liveRule({ ...regex, comment: undefined }, 551),
      { ...liveRule(otherRegex, 552), name: 'old-scanner' },
      liveRule(mode, 553),
      liveRule(mode, 554),
      liveRule({ ...console, comment: 'added in the console' }, 600, null),
      liveRule(ruleFields('vpatch', 7, '-theirs'), 601, 'team-a'),
    ],
    ipEntries: [
      ...liveObject(991, ['CN', 'KP', 'RU'], countries),
      ...liveObject(992, ['192.0.2.10/32'], { ...office, reason: 'office' }),
      ...liveObject(993, ['TOR'], { ruleType: 'proxy_type', list: 'gray', expiresAt: JAN_2027 }, null),
      ...liveObject(994, ['hetzner'], { ruleType: 'datacenter' }),
      ...liveObject(995, ['SES'], { ...proxies, client: 20001 }),
      ...liveObject(996, ['SES'], { ...proxies, client: 20001 }),
    ],
  };
  return { desired, live };
}
