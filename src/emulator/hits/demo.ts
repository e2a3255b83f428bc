/**
 * Demo hits: realistic false positives on the sample applications, the same
 * for every account, so `rampart tune --emulator` has something to tune. A
 * search for a name with an apostrophe reads as SQL injection in the shop
 * (application 7); a profile text with markup reads as XSS in the API
 * (application 8); a brute-force hit on the same request is no detector's and
 * stays out of tuning.
 */
import { hitFromSeed, type HitSeed, type StoredHit } from './records.js';

export const DEMO_REQUEST_IDS = { search: 'e3b0c44298fc1c14', profile: '9f86d081884c7d65' } as const;

const DAY = 86_400;

function seeds(clientid: number): HitSeed[] {
  const search = {
    clientid, request_id: DEMO_REQUEST_IDS.search, poolid: 7, domain: 'shop.example.com', path: '/search',
    point: ['get', 'q'], value: "o'brien & sons", attackid: ['hits-demo', 'a-search'] as [string, string],
  };
  const profile = {
    clientid, request_id: DEMO_REQUEST_IDS.profile, poolid: 8, domain: 'api.example.com', path: '/v1/profile.json',
    point: ['post', 'json_doc', 'hash', 'bio'], value: '<b>Head chef</b> at <i>Le Bistro</i>', attackid: ['hits-demo', 'a-profile'] as [string, string],
  };
  return [
    { ...search, type: 'sqli', stamps: [7730, 7731] },
    { ...search, type: 'sqli', stamps: [7731], point: ['get', 'sort'], value: "name' desc" },
    { ...profile, type: 'xss', stamps: [1201] },
    { ...profile, type: 'brute', stamps: [], point: ['post', 'json_doc', 'hash', 'password'], value: '********' },
  ];
}

export function demoHits(clientid: number, nowSeconds: number): StoredHit[] {
  return seeds(clientid).map((seed, i) => {
    const hit = hitFromSeed({ ...seed, time: nowSeconds - 2 * DAY + i }, i + 1, nowSeconds);
    return { ...hit, record: { ...hit.record, id: ['hits-demo', `d${clientid}-${i + 1}`] } };
  });
}
