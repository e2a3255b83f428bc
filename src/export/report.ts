/** What `rampart export` prints on stdout: the files written and what was left out. Pure. */
import { planClass } from '../plan/classes/index.js';
import type { ExportResult } from './export-result.js';
import type { SkipReason } from './types.js';
import type { WriteResult } from './write.js';

export type ReportFormat = 'text' | 'json';

export interface ReportInput {
  readonly client: number;
  readonly out: string;
  readonly owner: string;
  readonly result: ExportResult;
  readonly write: WriteResult;
}

const REASON_TEXT: Record<SkipReason, string> = {
  owned: 'managed by this owner',
  'other-owner': 'managed by another owner',
  expired: 'expired',
  duplicate: 'duplicate',
  conflict: 'conflict',
  unmappable: 'no policy file can express it',
  invalid: 'not valid as a policy',
  'no-round-trip': 'does not read back identically',
};

export function renderReport(input: ReportInput, format: ReportFormat): string {
  const { result } = input;
  if (format === 'json') {
    return `${JSON.stringify(
      {
        format_version: 1,
        client: input.client,
        out: input.out,
        files: result.files.map((f) => ({ name: f.name, rules: f.rules, ip_values: f.ipValues })),
        removed: input.write.removed,
        skipped: result.skipped,
      },
      null,
      2,
    )}\n`;
  }
  const rules = result.files.reduce((n, f) => n + f.rules, 0);
  const ips = result.files.reduce((n, f) => n + f.ipValues, 0);
  const lines: string[] = [];
  lines.push(`Exported ${plural(rules, 'rule')} and ${plural(ips, 'IP-list value')} of client ${input.client} into ${input.out}:`);
  const width = Math.max(0, ...result.files.map((f) => f.name.length));
  for (const file of result.files) lines.push(`  ${file.name.padEnd(width)}  ${plural(file.rules, 'rule')}, ${plural(file.ipValues, 'IP-list value')}`);
  if (result.files.length === 0) lines.push('  (nothing to export)');
  for (const name of input.write.removed) lines.push(`  removed ${name} (written by an earlier export; nothing belongs in it now)`);
  if (result.skipped.length > 0) {
    lines.push('', `Left out ${plural(result.skipped.length, 'object')}:`);
    for (const s of result.skipped) {
      const what = `${planClass(s.kind).noun} id ${s.id}${s.value !== undefined ? ` (${s.value})` : ''}`;
      lines.push(`  ${what}: ${REASON_TEXT[s.reason]}: ${s.detail}`);
    }
  }
  const owned = result.skipped.filter((s) => s.reason === 'owned').length;
  if (owned > 0) {
    lines.push(
      '',
      `Note: ${plural(owned, 'object')} carrying the mark of owner "${input.owner}" ${owned === 1 ? 'was' : 'were'} left out (--exclude-owned):`,
      `they belong to your existing policies. Plan ${input.out} together with them; planned alone, Rampart would delete those objects.`,
    );
  }
  // The next step must not be the plan just warned about: planned alone, an export without the owned objects deletes them.
  if (owned > 0) {
    lines.push('', `Next: move the files into your policy directory, beside the policies that declare those ${plural(owned, 'object')}, then run rampart validate && rampart plan --detailed-exitcode there.`);
  } else {
    lines.push('', 'Next: rampart validate --policies ' + input.out + ' && rampart plan --policies ' + input.out + ' --detailed-exitcode');
  }
  lines.push(`Then: rampart adopt makes the exported objects Rampart's, in place (see docs/onboarding.md).`);
  return `${lines.join('\n')}\n`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
