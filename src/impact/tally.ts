/** A set of requests as a change's impact: distinct requests, their sources, top paths and a few samples. */
import type { ChangeImpact, ImpactEffect } from '../plan/types.js';
import type { SeenRequest } from './requests.js';

/** The paths a change lists, most requests first. */
const TOP_PATHS = 5;
/** Request ids a change lists, the latest first. */
const SAMPLES = 3;

export function tally(effect: ImpactEffect, requests: Iterable<SeenRequest>, options: { readonly lowerBound?: boolean; readonly reason?: string } = {}): ChangeImpact {
  const unique = new Map<string, SeenRequest>();
  for (const request of requests) unique.set(request.id, request);
  const ips = new Set<string>();
  const paths = new Map<string, number>();
  for (const request of unique.values()) {
    if (request.ip !== undefined) ips.add(request.ip);
    paths.set(request.rawPath, (paths.get(request.rawPath) ?? 0) + 1);
  }
  const latest = [...unique.values()].sort((a, b) => b.time - a.time || (a.id < b.id ? -1 : 1)).slice(0, SAMPLES);
  return {
    effect, evaluable: true,
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    requests: unique.size,
    ips: ips.size,
    path_count: paths.size,
    paths: [...paths.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOP_PATHS).map(([path, n]) => ({ path, requests: n })),
    sample_request_ids: latest.map((r) => r.id),
    ...(options.lowerBound ? { lower_bound: true } : {}),
  };
}

export function notEvaluable(reason: string): ChangeImpact {
  return { effect: 'not_evaluable', evaluable: false, reason, requests: 0, ips: 0, paths: [], path_count: 0, sample_request_ids: [] };
}

export function noEffect(reason: string): ChangeImpact {
  return { effect: 'none', evaluable: true, reason, requests: 0, ips: 0, paths: [], path_count: 0, sample_request_ids: [] };
}
