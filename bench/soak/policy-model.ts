/**
 * The soak's policy directory as data: a few clients × applications, one file
 * each, with rules and IP-list entries that random edits add, remove and
 * change. Every value is unique (counters), so an edit never makes a policy
 * invalid (no object declared twice, no address both allowed and denied).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Prng } from './prng.js';

type RuleKind = 'vpatch' | 'regex' | 'mode';
type IpKind = 'ips' | 'countries' | 'proxies' | 'datacenters';
type ListName = 'deny' | 'allow' | 'gray';

interface RuleSpec {
  name: string;
  kind: RuleKind;
  /** Unique number: makes the rule's conditions unique. */
  token: number;
  /** Changes the rule's identity (regex, mode) without changing its name. */
  variant: number;
  comment?: string;
}

interface IpSpec {
  list: ListName;
  kind: IpKind;
  values: string[];
  reason?: string;
  expires?: string;
}

interface PolicyFile {
  client: number;
  application: number;
  mode?: 'monitoring' | 'block';
  rules: RuleSpec[];
  ip: IpSpec[];
}

export const SOAK_CLIENTS = [20001, 20002] as const;
export const SOAK_APPLICATIONS = [1, 2, 3] as const;
/** Rules, and IP entries, the policies keep at least (file removals aside). */
const MIN_OBJECTS = 12;
const COUNTRIES = ['KP', 'IR', 'CN', 'RU', 'BR', 'IN', 'VN', 'NG', 'UA', 'TR', 'ID', 'PK', 'TH', 'EG', 'MX'];
const PROXIES = ['VPN', 'SES', 'PUB', 'WEB', 'TOR'];
const DATACENTERS = ['hetzner', 'ovh', 'linode', 'aws', 'gce', 'azure', 'alibaba'];
const REASONS = ['scanner farm', 'abuse', 'office', 'partner', 'incident 42', undefined];
const EXPIRIES = ['2058-01-01', '2059-06-30T00:00:00Z', undefined, undefined];
const COMMENTS = ['legacy admin', 'from the audit', 'temporary', undefined, undefined];

/** Which kinds go to which list: keeps one value out of two lists of the same application. */
const KIND_LISTS: Readonly<Record<IpKind, readonly ListName[]>> = {
  ips: ['deny', 'allow', 'gray'],
  countries: ['deny'],
  proxies: ['gray'],
  datacenters: ['deny'],
};

export type EditKind =
  | 'add-rule' | 'remove-rule' | 'change-rule' | 'add-ip' | 'remove-ip' | 'change-ip' | 'add-file' | 'remove-file' | 'toggle-mode';

export class PolicyModel {
  private readonly files = new Map<string, PolicyFile>();
  private counter = 0;

  constructor(private readonly random: Prng) {}

  /** A few files with some content, so the first cycle has work. */
  seed(): void {
    for (const client of SOAK_CLIENTS) {
      for (const application of SOAK_APPLICATIONS.slice(0, 2)) {
        const file = this.addFile(client, application);
        for (let i = 0; i < 3; i++) this.addRule(file);
        for (let i = 0; i < 3; i++) this.addIp(file);
      }
    }
  }

  /** Applies `count` random edits; returns their kinds. */
  edit(count: number): EditKind[] {
    const done: EditKind[] = [];
    for (let i = 0; i < count; i++) done.push(this.editOnce());
    return done;
  }

  async write(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    for (const [path, file] of this.files) {
      const full = join(dir, path);
      await mkdir(join(full, '..'), { recursive: true });
      await writeFile(full, render(file));
    }
  }

  get fileCount(): number {
    return this.files.size;
  }

  private editOnce(): EditKind {
    const files = [...this.files.values()];
    const roll = this.random.next();
    if (files.length === 0 || (roll < 0.05 && this.files.size < SOAK_CLIENTS.length * SOAK_APPLICATIONS.length)) {
      const free = SOAK_CLIENTS.flatMap((client) => SOAK_APPLICATIONS.map((application) => ({ client, application })))
        .filter(({ client, application }) => !this.files.has(pathOf(client, application)));
      const { client, application } = this.random.pick(free);
      const file = this.addFile(client, application);
      this.addRule(file);
      this.addIp(file);
      return 'add-file';
    }
    if (roll < 0.07 && files.length > 3) {
      const file = this.random.pick(files);
      this.files.delete(pathOf(file.client, file.application));
      return 'remove-file';
    }
    const file = this.random.pick(files);
    if (roll < 0.1) {
      file.mode = file.mode === undefined ? this.random.pick(['monitoring', 'block'] as const) : undefined;
      return 'toggle-mode';
    }
    // Removals only above a floor, so the account does not drift down to nothing.
    const rules = files.reduce((n, f) => n + f.rules.length, 0);
    const ipEntries = files.reduce((n, f) => n + f.ip.length, 0);
    if (roll < 0.3) return this.addRule(file);
    if (roll < 0.42) return file.rules.length > 0 && rules > MIN_OBJECTS ? this.removeRule(file) : this.addRule(file);
    if (roll < 0.55) return file.rules.length > 0 ? this.changeRule(file) : this.addRule(file);
    if (roll < 0.75) return this.addIp(file);
    if (roll < 0.87) return file.ip.length > 0 && ipEntries > MIN_OBJECTS ? this.removeIp(file) : this.addIp(file);
    return file.ip.length > 0 ? this.changeIp(file) : this.addIp(file);
  }

  private addFile(client: number, application: number): PolicyFile {
    const file: PolicyFile = { client, application, rules: [], ip: [] };
    this.files.set(pathOf(client, application), file);
    return file;
  }

  private addRule(file: PolicyFile): EditKind {
    const token = ++this.counter;
    const comment = this.random.pick(COMMENTS);
    file.rules.push({
      name: `rule-${token}`,
      kind: this.random.pick(['vpatch', 'regex', 'mode'] as const),
      token,
      variant: 0,
      ...(comment ? { comment } : {}),
    });
    return 'add-rule';
  }

  private removeRule(file: PolicyFile): EditKind {
    file.rules.splice(this.random.int(0, file.rules.length - 1), 1);
    return 'remove-rule';
  }

  private changeRule(file: PolicyFile): EditKind {
    const rule = this.random.pick(file.rules);
    if (this.random.chance(0.5)) {
      const comment = this.random.pick(COMMENTS.filter((c) => c !== rule.comment));
      if (comment) rule.comment = comment;
      else delete rule.comment;
    } else {
      rule.variant += 1;
    }
    return 'change-rule';
  }

  private addIp(file: PolicyFile): EditKind {
    const kind = this.random.pick(['ips', 'ips', 'ips', 'countries', 'proxies', 'datacenters'] as const);
    const values = kind === 'ips' ? this.freshAddresses(this.random.int(1, 3)) : this.freshNames(file, kind, this.random.int(1, 2));
    if (values.length === 0) return 'add-ip';
    const reason = this.random.pick(REASONS);
    const expires = this.random.pick(EXPIRIES);
    file.ip.push({
      list: this.random.pick(KIND_LISTS[kind]),
      kind,
      values,
      ...(reason ? { reason } : {}),
      ...(expires ? { expires } : {}),
    });
    return 'add-ip';
  }

  private removeIp(file: PolicyFile): EditKind {
    file.ip.splice(this.random.int(0, file.ip.length - 1), 1);
    return 'remove-ip';
  }

  private changeIp(file: PolicyFile): EditKind {
    const entry = this.random.pick(file.ip);
    const roll = this.random.next();
    if (roll < 0.35) {
      const reason = this.random.pick(REASONS.filter((r) => r !== entry.reason));
      if (reason) entry.reason = reason;
      else delete entry.reason;
    } else if (roll < 0.55) {
      const expires = this.random.pick(EXPIRIES.filter((e) => e !== entry.expires));
      if (expires) entry.expires = expires;
      else delete entry.expires;
    } else if (roll < 0.8 || entry.values.length < 2) {
      const more = entry.kind === 'ips' ? this.freshAddresses(1) : this.freshNames(file, entry.kind, 1);
      entry.values.push(...more);
    } else {
      entry.values.splice(this.random.int(0, entry.values.length - 1), 1);
    }
    return 'change-ip';
  }

  /** Unique addresses, sometimes a /24 subnet. */
  private freshAddresses(count: number): string[] {
    return Array.from({ length: count }, () => {
      const n = ++this.counter;
      return this.random.chance(0.2) ? `10.${128 + ((n >> 8) & 127)}.${n & 255}.0/24` : `10.${(n >> 16) & 127}.${(n >> 8) & 255}.${n & 255}`;
    });
  }

  /** Names not yet used anywhere in this file (a value is declared once per application). */
  private freshNames(file: PolicyFile, kind: Exclude<IpKind, 'ips'>, count: number): string[] {
    const used = new Set(file.ip.filter((e) => e.kind === kind).flatMap((e) => e.values));
    const pool = kind === 'countries' ? COUNTRIES : kind === 'proxies' ? PROXIES : DATACENTERS;
    return this.random.sample(pool.filter((value) => !used.has(value)), count);
  }
}

function pathOf(client: number, application: number): string {
  return join(`client-${client}`, `app-${application}.yaml`);
}

const q = (value: string): string => JSON.stringify(value);

function renderRule(rule: RuleSpec): string[] {
  const lines = [`  - name: ${rule.name}`];
  if (rule.kind === 'vpatch') {
    lines.push('    type: vpatch', '    attack: any', '    point: [[header, HOST]]');
    lines.push('    when:', `      - { point: [path, 0], equal: ${q(`p${rule.token}v${rule.variant}`)} }`);
  } else if (rule.kind === 'regex') {
    lines.push('    type: regex', `    regex: ${q(`.*soak-${rule.token}-v${rule.variant}.*`)}`, '    attack: scanner', '    point: [[header, USER-AGENT]]');
    lines.push('    when:', `      - { point: [uri], equal: ${q(`/u${rule.token}`)} }`);
  } else {
    lines.push('    type: mode', `    mode: ${rule.variant % 2 === 0 ? 'block' : 'monitoring'}`);
    lines.push('    when:', `      - { point: [path, 0], equal: ${q(`m${rule.token}`)} }`);
  }
  if (rule.comment) lines.push(`    comment: ${q(rule.comment)}`);
  return lines;
}

function renderIp(entry: IpSpec): string[] {
  const lines = [`    - ${entry.kind}: [${entry.values.map(q).join(', ')}]`];
  if (entry.reason) lines.push(`      reason: ${q(entry.reason)}`);
  if (entry.expires) lines.push(`      expires: ${q(entry.expires)}`);
  return lines;
}

export function render(file: PolicyFile): string {
  const lines = ['version: 1', `client: ${file.client}`, `application: ${file.application}`, 'description: soak'];
  if (file.mode) lines.push(`mode: ${file.mode}`);
  lines.push(file.rules.length > 0 ? 'rules:' : 'rules: []');
  for (const rule of file.rules) lines.push(...renderRule(rule));
  const lists = (['deny', 'allow', 'gray'] as const).filter((list) => file.ip.some((e) => e.list === list && e.values.length > 0));
  if (lists.length > 0) {
    lines.push('ip_lists:');
    for (const list of lists) {
      lines.push(`  ${list}:`);
      for (const entry of file.ip.filter((e) => e.list === list && e.values.length > 0)) lines.push(...renderIp(entry));
    }
  }
  return `${lines.join('\n')}\n`;
}
