/**
 * `rampart tune`, the steps: read the hits of the requests (and, with
 * `--attack`, of their whole attacks on the same host, path and application),
 * group them into proposed rules, check each scope with the service's own,
 * place each in the file that declares its client and application, and say
 * what each is. Reads only; `write.ts` and the command write files.
 */
import type { ServiceApi } from '../api/service.js';
import { ApiAuthError, UsageError } from '../errors.js';
import { conditionKey, type DesiredRule, type LiveRule } from '../model/rule.js';
import { HIT_RETENTION_SECONDS, readAttackHits, readRequestHits, recordedRequest, type Hit } from '../hits/read.js';
import { compiled, fileFor, newFileName, placementOf, ruleName, writtenRule, type PlacedRule, type PolicyDocument } from './place.js';
import { groupHits, isDetectorHit, proposedRules, type HitGroup, type RuleChoice } from './propose.js';
import { serviceScope, type ServiceScope } from './scope.js';
import { scopeMatches, unrecordedCondition } from '../model/scope-match.js';
import { codeText } from '../outside-text.js';

/** The `poolid` of a hit of the default application. */
const DEFAULT_APPLICATION = -1;

export interface TuneRequest {
  readonly requestIds: readonly string[];
  readonly clients: readonly number[];
  readonly attack: boolean;
  /** Hits older than this (seconds since the epoch) are not read. */
  readonly since: number;
  readonly only?: RuleChoice;
  /** `--attack-types`: a `disable_attack_type` per attack type too. */
  readonly attackTypes?: boolean;
  readonly owner: string;
  readonly now: number;
  /** Use the service's scope even where it is empty or names another host, client or application. */
  readonly acceptServiceScope?: boolean;
}

export interface TuneInputs {
  readonly api: ServiceApi;
  readonly documents: readonly PolicyDocument[];
  readonly declared: readonly DesiredRule[];
  /** Where a new policy file of that name goes. */
  readonly newFilePath: (name: string) => string;
  /** The live rules of a client (read once per client that has proposals). */
  readonly liveRules: (client: number) => Promise<readonly LiveRule[]>;
}

export interface TuneResult {
  readonly rules: readonly PlacedRule[];
  /** What a reviewer should know: hosts a request spans, scopes the service sets otherwise, hits left out. */
  readonly notes: readonly string[];
  readonly hits: number;
  /** The hits of the requests named, as the service saw them: for a reviewer to judge the false positive. */
  readonly seen: readonly Hit[];
}

export async function tune(request: TuneRequest, inputs: TuneInputs): Promise<TuneResult> {
  const notes: string[] = [];
  const hits = await requestHits(request, inputs.api, notes);
  const groups = groupHits(hits);
  await checkScopes(groups, inputs.api, notes, request.acceptServiceScope ?? false);
  const hosts = new Set(groups.map((g) => `${g.client}|${g.domain}`));
  if (hosts.size > 1) notes.push(`the hits span ${hosts.size} hosts (${[...new Set(groups.map((g) => codeText(g.domain)))].join(', ')}): each gets rules scoped to it`);

  const taken = new Map<string, Set<string>>();
  const live = new Map<number, readonly LiveRule[]>();
  const rules: PlacedRule[] = [];
  for (const proposal of proposedRules(groups, { ...(request.only ? { only: request.only } : {}), attackTypes: request.attackTypes ?? false })) {
    const { client, application } = proposal.group;
    if (application === DEFAULT_APPLICATION) {
      // A policy file declares application ids or `all`; `all` would open the exception on every application.
      const note = `the hits on ${codeText(proposal.group.domain)}${codeText(proposal.group.path)} are of the default application (-1), which a policy file cannot declare yet: not proposed (\`all\` would be wider than the hits)`;
      if (!notes.includes(note)) notes.push(note);
      continue;
    }
    const document = fileFor(inputs.documents, client, application);
    const file = document?.file ?? inputs.newFilePath(newFileName(client, application));
    const names = taken.get(file) ?? new Set(document?.names ?? []);
    taken.set(file, names);
    const written = writtenRule(proposal);
    const rule = compiled(written, client, application);
    if (!rule) {
      // A point kind the service added after this version, or a value no policy can hold: the other requests are still tuned.
      const [hit] = proposal.group.hits;
      const note = `hit ${hit ? codeText(hit.id.join('/')) : '?'} of request ${hit ? codeText(hit.requestId) : '?'} at ${codeText(proposal.group.point.map((e) => e.join(' ')).join(' › '))} cannot become a policy rule (a point this version does not know?): skipped`;
      if (!notes.includes(note)) notes.push(note);
      continue;
    }
    if (!live.has(client)) live.set(client, await inputs.liveRules(client));
    const placement = placementOf(rule, inputs.declared, live.get(client) ?? [], request.owner);
    const name = placement.status === 'new' ? ruleName(proposal, names) : '';
    rules.push({ proposal, file, newFile: document === undefined, name, written, placement });
  }
  const named = new Set(request.requestIds);
  return { rules, notes, hits: hits.length, seen: hits.filter((hit) => named.has(hit.requestId)) };
}

async function requestHits(request: TuneRequest, api: ServiceApi, notes: string[]): Promise<Hit[]> {
  const found: Hit[] = [];
  for (const client of request.clients) {
    try {
      // The window is the service's retention, not --since: a request older than --since is named as such below.
      found.push(...await readRequestHits(api, client, request.requestIds, { window: { from: request.now - HIT_RETENTION_SECONDS, to: request.now } }));
    } catch (error) {
      if (error instanceof ApiAuthError) throw new ApiAuthError(`the API token may not read the hits of client ${client}: ${error.message}`, { cause: error, httpStatus: error.httpStatus, tokenRejected: error.tokenRejected });
      throw error;
    }
  }
  const unknown = request.requestIds.filter((id) => !found.some((hit) => hit.requestId === id));
  if (unknown.length > 0) {
    throw new UsageError(`no hits of request ${unknown.join(', ')} in client ${request.clients.join(', ')}: check the request id (the service keeps hits about six months)`);
  }
  const old = request.requestIds.filter((id) => found.filter((hit) => hit.requestId === id).every((hit) => hit.time < request.since));
  if (old.length > 0) throw new UsageError(`request ${old.join(', ')} is older than --since: widen --since to tune from it`);
  const recent = found.filter((hit) => hit.time >= request.since);
  const left = recent.filter((hit) => !isDetectorHit(hit));
  if (left.length > 0) notes.push(`${left.length} hit${left.length === 1 ? '' : 's'} of ${[...new Set(left.map((h) => codeText(h.type)))].join(', ')} left out: not a detector's false positive`);
  if (!request.attack) return recent;
  return [...recent, ...await attackHits(recent, request, api)];
}

/** `--attack`: the other hits of the same attacks, on the same host, path and application, within `--since`. */
async function attackHits(seen: readonly Hit[], request: TuneRequest, api: ServiceApi): Promise<Hit[]> {
  const out: Hit[] = [];
  const ids = new Set(seen.map((hit) => JSON.stringify(hit.id)));
  const byClient = new Map<number, Hit[]>();
  for (const hit of seen) byClient.set(hit.client, [...(byClient.get(hit.client) ?? []), hit]);
  for (const [client, hits] of byClient) {
    const attackids = [...new Map(hits.map((hit) => [JSON.stringify(hit.attackId), hit.attackId])).values()];
    const same = new Set(hits.map((hit) => JSON.stringify([hit.domain, hit.path, Math.max(hit.application, 0)])));
    const wider = await readAttackHits(api, client, attackids, { window: { from: request.since, to: request.now } });
    for (const hit of wider) {
      if (ids.has(JSON.stringify(hit.id)) || !same.has(JSON.stringify([hit.domain, hit.path, Math.max(hit.application, 0)]))) continue;
      ids.add(JSON.stringify(hit.id));
      out.push(hit);
    }
  }
  return out;
}

/**
 * The service's own scope for each group's first hit; where it differs, it
 * wins, and a note says so. A scope that would open more than the hit touched
 * is refused, naming the hit, unless `accept`: none at all (detection off for
 * that parameter on every host and path of the application), another host,
 * another client, another application. The service's own provider stops there
 * too.
 */
async function checkScopes(groups: HitGroup[], api: ServiceApi, notes: string[], accept: boolean): Promise<void> {
  for (const group of groups) {
    const [first] = group.hits;
    if (!first) continue;
    const answer = await api.actionByHit(first.id);
    const theirs = serviceScope(answer.conditions);
    const ours = group.scope.map(conditionKey);
    const same = theirs.conditions.length === ours.length && theirs.conditions.every((c, i) => conditionKey(c) === ours[i]);
    // Where the answer names the application, it must be the hit's own (-1, the default application, included).
    const sameApplication = theirs.instance === undefined || theirs.instance === String(first.application);
    if (same && sameApplication && answer.clientid === first.client) continue;
    const wider = widerScope(theirs, answer.clientid, first);
    const where = `hit ${codeText(first.id.join('/'))} of request ${codeText(first.requestId)} on ${codeText(group.domain)}${codeText(group.path)}`;
    if (wider && !accept) {
      throw new UsageError(`the service scopes ${where} ${wider}: a rule from it would stop detection where the request never was. Check the hit in the console; to use that scope anyway, pass --accept-service-scope`);
    }
    if (wider) notes.push(`the service scopes ${where} ${wider}: used, as --accept-service-scope asks`);
    if (same) continue;
    notes.push(`the service scopes hits on ${codeText(group.domain)}${codeText(group.path)} otherwise than Rampart derived: its scope is used`);
    // Read as --impact reads a rule's reach, by the request model both share: a reviewer should look twice.
    if (unrecordedCondition(theirs.conditions) === undefined && !scopeMatches(theirs.conditions, recordedRequest(first))) {
      notes.push(`the service's scope for hits on ${codeText(group.domain)}${codeText(group.path)} does not select that path as Rampart reads it (--impact would not count the request): check it in the console`);
    }
    group.derivedScope = group.scope;
    group.scope = theirs.conditions;
  }
}

/** How the service's scope reaches beyond the hit, or undefined when it does not. */
function widerScope(theirs: ServiceScope, client: number, hit: Hit): string | undefined {
  if (client !== hit.client) return `in client ${client}, not the hit's ${hit.client}`;
  if (theirs.instance !== undefined && theirs.instance !== String(hit.application)) return `to application ${theirs.instance}, not the hit's ${hit.application}`;
  if (theirs.conditions.length === 0) return 'to no condition at all';
  const host = theirs.conditions.find((c) => c.point[0] === 'header' && c.point[1] === 'HOST');
  if (host && host.value !== hit.domain.toLowerCase()) return `to the host ${codeText(host.value ?? '')}, not the hit's ${codeText(hit.domain)}`;
  return undefined;
}
