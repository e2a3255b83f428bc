import { NEVER_EXPIRES, type IpListName, type IpRuleType } from '../../model/ip.js';
import { isKindName, ruleKind } from '../../rules/registry.js';
import { describeRewrites, ruleRewrites } from '../../model/rewrites.js';
import { ruleFromPlan } from '../objects.js';
import type { Application, Plan, PlanAdoptRule, PlanIpObject, PlanRule, PlanSummary, PlanUpdateRule } from '../types.js';

/**
 * One printable line per created object group, deleted rule or deleted IP
 * object, in plan order: what the text and markdown renderers share.
 */
export interface PlanLine {
  /** `+` create, `-` delete, `~` update in place, `-/+` replace (a create that replaces owned objects), `@` adopt. */
  readonly sign: Sign;
  readonly client: number;
  readonly application: Application;
  readonly kind: 'rule' | 'ip';
  /** What: `rule block-admin (vpatch)`, `deny country KP, RU`, `rule #551 (regex)`, `deny 10.0.0.0/8 (object #9)`. */
  readonly subject: string;
  /** Why or how: `replaces #551`, `not-declared`, `expires 2027-01-31T00:00:00Z`. */
  readonly detail: string;
  /** `file:line` of the declaration, for creates. */
  readonly source?: string;
  /** Policy file and line, for creates (annotations). */
  readonly file?: string;
  readonly line?: number;
}

export type Sign = '+' | '-' | '~' | '-/+' | '@';

/** What each sign does, in words (tables, summaries). */
export const SIGN_ACTIONS: Readonly<Record<Sign, string>> = { '+': 'create', '-': 'delete', '~': 'update', '-/+': 'replace', '@': 'adopt' };

export const LIST_LABELS: Readonly<Record<IpListName, string>> = { black: 'deny', white: 'allow', gray: 'gray' };
const TYPE_LABELS: Readonly<Record<IpRuleType, string>> = {
  ip_range: '', country: 'country ', proxy_type: 'proxy ', datacenter: 'datacenter ',
};

function quote(text: string): string {
  return JSON.stringify(text);
}

function ruleSubject(rule: PlanRule): string {
  const kind = isKindName(rule.kind) ? ruleKind(rule.kind) : undefined;
  const what = kind ? `${rule.kind}: ${kind.describe(rule.fields)}` : rule.kind;
  return rule.comment !== undefined ? `${what}, comment ${quote(rule.comment)}` : what;
}

function ipSubject(object: PlanIpObject): string {
  return `${LIST_LABELS[object.list]} ${TYPE_LABELS[object.rule_type]}${object.values.join(', ')}`;
}

function ipAttributes(object: PlanIpObject): string[] {
  const parts: string[] = [];
  if (object.expires_at !== NEVER_EXPIRES) {
    parts.push(`expires ${new Date(object.expires_at * 1000).toISOString().replace('.000Z', 'Z')}`);
  }
  if (object.reason !== undefined) parts.push(`reason ${quote(object.reason)}`);
  return parts;
}

const ids = (list: readonly number[]): string => list.map((id) => `#${id}`).join(', ');

/** `mode: "block" → "monitoring"; comment: …` for the fields an update changes. */
function updateDetail(change: PlanUpdateRule | PlanAdoptRule): string {
  const before = ruleFromPlan(change.client, change.before);
  const after = ruleFromPlan(change.client, change.rule);
  return describeRewrites(ruleRewrites(before, after).filter((r) => change.fields.includes(r.field)));
}

export function planLines(plan: Plan): PlanLine[] {
  const lines: PlanLine[] = [];
  for (const c of plan.changes) {
    const base = { client: c.client, application: c.application, kind: c.kind } as const;
    if (c.action === 'create') {
      const replacing = c.kind === 'rule' ? (c.replaces?.length ?? 0) > 0 : c.force;
      const where = { source: `${c.file}:${c.line}`, file: c.file, line: c.line };
      if (c.kind === 'rule') {
        const order = c.delete_first ? ' after deleting it (one per scope)' : '';
        lines.push({
          ...base, ...where, sign: replacing ? '-/+' : '+',
          subject: `rule ${c.name} (${ruleSubject(c.rule)})`,
          detail: c.replaces?.length ? `replaces ${ids(c.replaces)}${order}` : '',
        });
      } else {
        const how = c.force ? [c.replaces?.length ? `force, moves out of ${ids(c.replaces)}` : 'force'] : [];
        lines.push({
          ...base, ...where, sign: replacing ? '-/+' : '+',
          subject: ipSubject(c.object),
          detail: [...how, ...ipAttributes(c.object)].join('; '),
        });
      }
    } else if (c.action === 'adopt') {
      const where = { source: `${c.file}:${c.line}`, file: c.file, line: c.line };
      if (c.kind === 'rule') {
        const changes = c.fields.length > 0 ? `; ${updateDetail(c)}` : '';
        lines.push({ ...base, ...where, sign: '@', subject: `rule ${c.name} #${c.id} (${ruleSubject(c.rule)})`, detail: `owner mark added${changes}` });
      } else {
        const changes = c.fields.length > 0 ? `; ${c.fields.join(' and ')} as declared` : '';
        lines.push({ ...base, ...where, sign: '@', subject: ipSubject(c.object), detail: [`owner mark added (${ids(c.ids)})${changes}`, ...ipAttributes(c.object)].join('; ') });
      }
    } else if (c.action === 'update') {
      const where = { source: `${c.file}:${c.line}`, file: c.file, line: c.line };
      lines.push({ ...base, ...where, sign: '~', subject: `rule ${c.name} #${c.id} (${ruleSubject(c.rule)})`, detail: updateDetail(c) });
    } else if (c.kind === 'rule') {
      const named = c.name !== undefined ? `rule ${c.name} #${c.id}` : `rule #${c.id}`;
      lines.push({ ...base, sign: '-', subject: `${named} (${ruleSubject(c.rule)})`, detail: c.reason });
    } else {
      for (const o of c.objects) {
        const moved = o.moved?.length ? `; after moving out ${o.moved.join(', ')}` : '';
        const hidden = o.size - o.object.values.length - (o.moved?.length ?? 0);
        const more = hidden > 0 ? ` and ${hidden} more` : '';
        lines.push({
          ...base, application: o.application, sign: '-',
          subject: `${ipSubject(o.object)}${more} (object #${o.id})`,
          detail: `${o.reason}${moved}`,
        });
      }
    }
  }
  return lines;
}

/** `3 to create, 1 to update, 1 to delete, 42 unchanged` (update and replace shown when not 0). */
export function summaryPhrase(summary: PlanSummary): string {
  const update = summary.update > 0 ? `, ${summary.update} to update` : '';
  const replace = summary.replace > 0 ? `, ${summary.replace} to replace` : '';
  const adopt = summary.adopt > 0 ? `, ${summary.adopt} to adopt` : '';
  return `${summary.create} to create${update}, ${summary.delete} to delete${replace}${adopt}, ${summary.unchanged} unchanged`;
}

/**
 * One line for every declaration an unmanaged object satisfies (the plan's
 * `unmanaged` list names each), or undefined when there is none.
 */
export function unmanagedPhrase(plan: Plan): string | undefined {
  const n = plan.unmanaged.length;
  if (n === 0) return undefined;
  const are = n === 1 ? 'object is' : 'objects are';
  return `${n} declared ${are} held by unmanaged objects (no owner mark): not created again, and not deleted if removed from the policies. ` +
    '`rampart adopt` makes them Rampart\'s.';
}

/**
 * One line for the exported objects no declaration matches any more (the
 * plan's `left_unmanaged` names each), or undefined when there is none.
 */
export function leftUnmanagedPhrase(plan: Plan): string | undefined {
  const n = plan.left_unmanaged.length;
  if (n === 0) return undefined;
  const shown = plan.left_unmanaged.slice(0, 10).map((o) => (o.kind === 'rule' ? `rule #${o.id}` : `${o.value ?? '?'} #${o.id}`));
  const more = n > shown.length ? `, and ${n - shown.length} more` : '';
  return `${n} exported object${n === 1 ? ' is' : 's are'} no longer declared but stay${n === 1 ? 's' : ''} in the account: ` +
    `Rampart does not manage ${n === 1 ? 'it' : 'them'}, so nothing deletes ${n === 1 ? 'it' : 'them'} (${shown.join(', ')}${more}). ` +
    'To have Rampart delete an object, declare it again, run `rampart adopt`, then remove it; or delete it in the console.';
}

export const NO_CHANGES = 'No changes. The account matches the policies.';
/** The closing line when nothing is to be done yet the account holds what the policies no longer declare. */
export const NO_CHANGES_LEFT_BEHIND = 'No changes Rampart can make; the account still holds objects the policies no longer declare (above).';

/** Groups items by a key, keeping first-seen order inside each group. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
