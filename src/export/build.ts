/**
 * The pure core of `rampart export`: live state → policy files. Every file
 * is validated with the same code `rampart validate` runs, and every exported
 * object must read back as exactly the live object it came from (same
 * identity, same comment, reason and expiry), so `plan` on the output finds
 * nothing to change. An object that fails either check is left out and
 * reported instead of breaking the export.
 */
import { ExportCheckError } from '../errors.js';
import { ipKey, type LiveIpEntry } from '../model/ip.js';
import { ruleKey, satisfies, type Rule } from '../model/rule.js';
import { appendTo } from '../plan/append.js';
import type { LiveState } from '../model/state.js';
import { loadPolicyTexts } from '../policy/validate.js';
import type { Diagnostic } from '../diagnostic.js';
import { buildRecord } from './record.js';
import { cleanText, renderFiles, type RenderOptions } from './render.js';
import { selectObjects, sortSkipped } from './select.js';
import type { ExportOptions, ExportResult, PlacedIpEntry, PlacedRule, Skipped } from './types.js';

export function buildExport(live: LiveState, options: ExportOptions): ExportResult {
  const selection = selectObjects(live, options);
  const skipped: Skipped[] = [...selection.skipped];
  const render: RenderOptions = { client: options.client, schemaRef: options.schemaRef };
  const now = new Date(options.now * 1000);
  let rules = [...selection.rules];
  let ipEntries = [...selection.ipEntries];

  // Objects that do not validate on their own: found one by one, only when the whole fails.
  let result = loadPolicyTexts(texts(renderFiles(rules, ipEntries, render)), { now });
  if (!result.desired) {
    const bad = new Set<PlacedRule | PlacedIpEntry>();
    for (const placed of rules) {
      const problem = firstError(loadPolicyTexts(texts(renderFiles([placed], [], render)), { now }).diagnostics);
      if (problem) {
        bad.add(placed);
        skipped.push({ kind: 'rule', id: placed.live.id, reason: 'invalid', detail: problem });
      }
    }
    for (const placed of ipEntries) {
      const problem = firstError(loadPolicyTexts(texts(renderFiles([], [placed], render)), { now }).diagnostics);
      if (problem) {
        bad.add(placed);
        skipped.push({ kind: 'ip', id: placed.live.id, value: placed.live.value, reason: 'invalid', detail: problem });
      }
    }
    rules = rules.filter((p) => !bad.has(p));
    ipEntries = ipEntries.filter((p) => !bad.has(p));
    result = loadPolicyTexts(texts(renderFiles(rules, ipEntries, render)), { now });
    if (!result.desired) throw new ExportCheckError(result.diagnostics.filter((d) => d.severity === 'error'));
  }

  // Every object must come back as itself.
  const desiredRules = new Map<string, Rule[]>();
  for (const rule of result.desired.rules) appendTo(desiredRules, ruleKey(rule), rule);
  const desiredIps = new Set(result.desired.ipEntries.map((e) => ipIdentity(e)));
  const lostRules = rules.filter((p) => {
    const live = { ...p.live, comment: cleanText(p.live.comment) };
    return !(desiredRules.get(ruleKey(live)) ?? []).some((want) => satisfies(live, want));
  });
  const lostIps = ipEntries.filter((p) => !desiredIps.has(ipIdentity({ ...p.live, reason: cleanText(p.live.reason) })));
  for (const placed of lostRules) {
    skipped.push({ kind: 'rule', id: placed.live.id, reason: 'no-round-trip', detail: 'the policy format cannot express this rule exactly' });
  }
  for (const placed of lostIps) {
    skipped.push({ kind: 'ip', id: placed.live.id, value: placed.live.value, reason: 'no-round-trip', detail: 'the policy format cannot express this entry exactly (e.g. its reason or a fractional expiry)' });
  }
  if (lostRules.length > 0 || lostIps.length > 0) {
    rules = rules.filter((p) => !lostRules.includes(p));
    ipEntries = ipEntries.filter((p) => !lostIps.includes(p));
  }
  const files = renderFiles(rules, ipEntries, render);
  if (lostRules.length > 0 || lostIps.length > 0) {
    const final = loadPolicyTexts(texts(files), { now });
    if (!final.desired) throw new ExportCheckError(final.diagnostics.filter((d) => d.severity === 'error'));
  }
  return { files, skipped: sortSkipped(skipped), record: buildRecord(options.client, rules, ipEntries, files) };
}

function texts(files: readonly { name: string; text: string }[]): { file: string; text: string }[] {
  return files.map((f) => ({ file: f.name, text: f.text }));
}

function firstError(diagnostics: readonly Diagnostic[]): string | undefined {
  const error = diagnostics.find((d) => d.severity === 'error');
  return error ? `${error.message} [${error.code}]` : undefined;
}


function ipIdentity(entry: Pick<LiveIpEntry, 'expiresAt' | 'reason'> & Parameters<typeof ipKey>[0]): string {
  return JSON.stringify([ipKey(entry), entry.expiresAt, entry.reason ?? null]);
}
