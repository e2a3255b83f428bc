/**
 * The floor of a no-op plan's work, measured in the same run as the plan so
 * that a ratio survives a noisy machine: read every policy file and parse it
 * with the fastest YAML parser at hand (js-yaml's `load`: no positions, no
 * validation), then fetch every listing page and
 * parse its JSON, knowing each listing's size (no paging logic, no
 * normalization, no plan), with as many calls in flight as the plan allows.
 * Run directly, this module is that fresh process.
 *
 * The floor holds every parsed document until the last page is parsed, as a
 * plan holds its desired state while it reads: its peak RSS is then the
 * memory floor of a plan (the least a process holding both inputs as plain
 * parsed values needs). Holding them costs the floor no measurable time.
 *
 * The validating floor also checks each parsed document against the policy
 * schema with the validator Rampart generates (no messages, no positions):
 * work any tool that validates its input pays, and the floor leaves
 * out (docs/performance.md has why the plan is shown against both).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { ApiClient } from '../../src/api/client.js';
import { APPLICATION_PAGE_LIMIT, HINT_PAGE_LIMIT, IP_GROUP_PAGE_LIMIT, IP_RULE_PAGE_LIMIT } from '../../src/api/service.js';

/** The groups API's list names. */
const GROUP_LISTS: Readonly<Record<string, string>> = { black: 'block', white: 'allow', gray: 'gray' };
import { createLimiter } from '../../src/concurrency.js';
import { minimumListingCalls } from '../../src/live/paging.js';
import { validate as validateSchema } from '../../src/policy/schema-validator.generated.js';
import { BENCH_TOKEN } from './emulator-process.js';

/** One listing to fetch: a client's rules, or one of its IP lists, and how many objects it holds. */
export interface FloorListing {
  readonly client: number;
  /** `credentials`: the client's credential-stuffing rules, one call whatever their number; `applications`: its applications, one page. */
  readonly list: 'rules' | 'credentials' | 'applications' | 'black' | 'white' | 'gray';
  readonly objects: number;
  /** An IP list read through the successor groups API rather than v4. */
  readonly api?: 'groups';
}

export interface FloorFigures {
  readonly totalMs: number;
  readonly loadMs: number;
  readonly readMs: number;
  readonly calls: number;
  /** The floor process's peak resident set size (MB), both inputs held at the end. */
  readonly maxRssMb: number;
}

interface FloorInput {
  readonly url: string;
  readonly policies: string;
  readonly listings: readonly FloorListing[];
  readonly concurrency: number;
  /** Also check each document against the policy schema (the validating floor). */
  readonly validate: boolean;
}

export function measureFloor(input: FloorInput): Promise<FloorFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as FloorFigures) : reject(new Error(`the floor process exited with ${code}`))));
    child.stdin.end(JSON.stringify(input));
  });
}

async function yamlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await yamlFiles(path)));
    else if (/\.ya?ml$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

async function floor(input: FloorInput): Promise<FloorFigures> {
  const started = performance.now();
  const documents: unknown[] = [];
  for (const file of await yamlFiles(input.policies)) {
    const data = load(await readFile(file, 'utf8'));
    if (data === undefined) continue;
    if (input.validate && !validateSchema(data)) throw new Error(`the validating floor found ${file} invalid`);
    documents.push(data);
  }
  if (documents.length === 0) throw new Error('the floor found no policy file');
  const loaded = performance.now();

  const http = new ApiClient({ baseUrl: input.url, credentials: { token: BENCH_TOKEN }, connections: input.concurrency });
  const schedule = createLimiter(input.concurrency);
  const pages: Promise<unknown>[] = [];
  for (const { client, list, objects, api } of input.listings) {
    if (list === 'credentials') {
      pages.push(schedule(() => http.call('GET', `/v4/clients/${client}/credential_stuffing/configs`)));
      continue;
    }
    if (list === 'applications') {
      pages.push(schedule(() => http.call('POST', '/v1/objects/pool', { limit: APPLICATION_PAGE_LIMIT, offset: 0, filter: { clientid: [client] } })));
      continue;
    }
    if (api === 'groups') {
      const apiList = GROUP_LISTS[list] ?? list;
      for (let page = 0; page < minimumListingCalls(objects, IP_GROUP_PAGE_LIMIT); page++) {
        const query = new URLSearchParams({ 'filter[list]': apiList });
        for (const type of ['subnet', 'location', 'datacenter', 'proxy_type']) query.append('filter[rule_type][]', type);
        query.set('limit', String(IP_GROUP_PAGE_LIMIT));
        query.set('offset', String(page * (IP_GROUP_PAGE_LIMIT - 1)));
        pages.push(schedule(() => http.call('GET', `/v1/blocklist/clients/${client}/groups?${query.toString()}`)));
      }
      continue;
    }
    const limit = list === 'rules' ? HINT_PAGE_LIMIT : IP_RULE_PAGE_LIMIT;
    for (let page = 0; page < minimumListingCalls(objects, limit); page++) {
      const offset = page * (limit - 1);
      pages.push(schedule(() => list === 'rules'
        ? http.call('POST', '/v1/objects/hint', { filter: { clientid: [client] }, order_by: 'id', order_desc: false, limit, offset })
        : http.call('GET', `/v4/ip_rules?${new URLSearchParams({ 'filter[clientid]': String(client), 'filter[list]': list, offset: String(offset), limit: String(limit) }).toString()}`)));
    }
  }
  const listed = await Promise.all(pages);
  const read = performance.now();
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  // Both inputs held to the end, as a plan holds them (read after the figures, so nothing is optimized away).
  if (listed.length === 0 || documents.length === 0) throw new Error('the floor read nothing');
  const calls = http.totalCalls;
  await http.close();
  const round = Math.round;
  return { totalMs: round(read - started), loadMs: round(loaded - started), readMs: round(read - loaded), calls, maxRssMb };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  process.stdout.write(JSON.stringify(await floor(JSON.parse(text) as FloorInput)));
}
