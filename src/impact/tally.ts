/** A set of requests as a change's impact: distinct requests, their sources, top paths and a few samples. */
import type { ImpactEffect } from '../plan/change-document.js';
import type { Impact } from '../plan/model.js';
import type { SeenRequest } from './requests.js';

/** The paths a change lists, most requests first. */
const TOP_PATHS = 5;
/** Request ids a change lists, the latest first. */
const SAMPLES = 3;

/** `unique`: each request once (`distinct` makes such a list of lists that may share requests). */
export function tally(effect: ImpactEffect, unique: readonly SeenRequest[], options: { readonly lowerBound?: boolean; readonly reason?: string } = {}): Impact {
  const ips = new Set<string>();
  const paths = new Map<string, number>();
  for (const request of unique) {
    if (request.ip !== undefined) ips.add(request.ip);
    paths.set(request.rawPath, (paths.get(request.rawPath) ?? 0) + 1);
  }
  const latest = latestOf(unique, SAMPLES);
  return {
    effect, evaluable: true,
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    requests: unique.length,
    ips: ips.size,
    pathCount: paths.size,
    paths: [...paths.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOP_PATHS).map(([path, n]) => ({ path, requests: n })),
    sampleRequestIds: latest.map((r) => r.id),
    ...(options.lowerBound ? { lowerBound: true } : {}),
  };
}

/** The `n` latest requests, latest first (ties by id), in one pass: a mode change may govern every request read. */
function latestOf(requests: Iterable<SeenRequest>, n: number): SeenRequest[] {
  const later = (a: SeenRequest, b: SeenRequest) => a.time > b.time || (a.time === b.time && a.id < b.id);
  const kept: SeenRequest[] = [];
  for (const request of requests) {
    if (kept.length === n && !later(request, kept[n - 1] as SeenRequest)) continue;
    let i = Math.min(kept.length, n - 1);
    kept[i] = request;
    while (i > 0 && later(kept[i] as SeenRequest, kept[i - 1] as SeenRequest)) {
      [kept[i - 1], kept[i]] = [kept[i] as SeenRequest, kept[i - 1] as SeenRequest];
      i--;
    }
  }
  return kept;
}

/**
 * The requests of several lists, each once (one object per request of a
 * client, so identity is the request). The callers whose lists cannot share a
 * request (one side of a set, one entry's sources) pass theirs as they are.
 */
export function distinct(lists: readonly (readonly SeenRequest[])[]): readonly SeenRequest[] {
  if (lists.length === 1) return lists[0] as readonly SeenRequest[];
  return [...new Set(lists.flat())];
}

export function notEvaluable(reason: string): Impact {
  return { effect: 'not_evaluable', evaluable: false, reason, requests: 0, ips: 0, paths: [], pathCount: 0, sampleRequestIds: [] };
}

export function noEffect(reason: string): Impact {
  return { effect: 'none', evaluable: true, reason, requests: 0, ips: 0, paths: [], pathCount: 0, sampleRequestIds: [] };
}
