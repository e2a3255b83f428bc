/**
 * Objects Rampart created, recognized by the fingerprint in their mark.
 *
 * The service may store a field differently from what was sent (a rewrite
 * nobody documented). Compared field by field, such an object would look
 * undeclared and its declaration missing: the plan would create it again and
 * delete it, forever. An owned object whose mark carries the fingerprint of a
 * declared object is that object, so before the diff it is read as its
 * declaration (keeping its id and owner) and a note names what the service
 * stored differently. A changed declaration has another fingerprint: it
 * no longer matches and the diff plans the change as usual.
 */
import { planClass } from './classes/index.js';
import { ipFingerprint } from '../model/ip-fingerprint.js';
import { ruleFingerprint } from '../model/rule-fingerprint.js';
import { plainIpEntry, type DesiredIpEntry, type LiveIpEntry } from '../model/ip.js';
import { describeRewrites } from '../model/rewrites.js';
import { ipRewrites } from '../model/ip-rewrites.js';
import { ruleRewrites } from '../model/rule-rewrites.js';
import { fieldValues, kindOf, ruleKey, type DesiredRule, type LiveRule, type Rule } from '../model/rule.js';
import { sameValue } from '../rules/field.js';
import { addOneOrMore, someHeld, type OneOrMore } from './append.js';
import { IpIndex } from './ip-slots.js';
import { sameIpAttributes } from './diff-ip.js';
import type { Note } from './notes.js';

/** Notes of this kind beyond this many are folded into one line. */
const MAX_REWRITE_NOTES = 50;

export interface Recognized<T> {
  readonly live: readonly T[];
  readonly notes: Note[];
}


export function recognizeRules(desired: readonly DesiredRule[], live: readonly LiveRule[], owner: string): Recognized<LiveRule> {
  const marked = live.filter((rule) => rule.owner === owner && rule.fingerprint !== undefined);
  if (marked.length === 0) return { live, notes: [] };
  // A marked rule listed exactly as declared is its own declaration: found by identity, then compared field by field
  // (what `ruleContentKey` holds, without building that text for every rule of both sides).
  const byIdentity = new Map<string, OneOrMore<DesiredRule>>();
  for (const rule of desired) addOneOrMore(byIdentity, ruleKey(rule), rule);
  const candidates = marked.filter((rule) => !someHeld(byIdentity.get(ruleKey(rule)), (want) => sameContent(want, rule)));
  if (candidates.length === 0) return { live, notes: [] };
  const byFingerprint = new Map(desired.map((rule) => [ruleFingerprint(rule), rule]));
  const replaced = new Map<LiveRule, LiveRule>();
  const notes = new NoteFolder('rule');
  for (const stored of candidates) {
    const want = byFingerprint.get(stored.fingerprint as string);
    if (!want) continue;
    // What the service filled in where the declaration is silent is no rewrite: the diff finds them equal.
    const rewrites = ruleRewrites(want, stored);
    if (rewrites.length === 0) continue;
    const { source, ...declaredRule } = want;
    replaced.set(stored, { ...declaredRule, id: stored.id, owner, fingerprint: stored.fingerprint });
    notes.add(want.client, source, stored.id, describeRewrites(rewrites));
  }
  return { live: live.map((rule) => replaced.get(rule) ?? rule), notes: notes.done() };
}

/** Two rules of one identity say the same: every field (none and absent alike) and the comment (none and empty alike). */
function sameContent(a: Rule, b: Rule): boolean {
  if ((a.comment || null) !== (b.comment || null)) return false;
  const x = fieldValues(a);
  const y = fieldValues(b);
  return kindOf(a).fields.every((field) => {
    const [p, q] = [x[field.name], y[field.name]];
    return p === undefined || q === undefined ? p === q : sameValue(p, q);
  });
}

/**
 * The fingerprint of a multi-value object leaves the values out (one create
 * carries several): its declared attributes are taken, its values kept.
 */
export function recognizeIpEntries(desired: readonly DesiredIpEntry[], live: readonly LiveIpEntry[], owner: string): Recognized<LiveIpEntry> {
  const marked = live.filter((e) => e.owner === owner && e.fingerprint !== undefined);
  if (marked.length === 0) return { live, notes: [] };
  // Declarations by identity; a marked value declared with the same expiry and reason is its own declaration.
  // An identity holds its one declaration, a list only from a second (append.ts).
  const declared = new IpIndex<OneOrMore<DesiredIpEntry>>();
  for (let i = 0; i < desired.length; i++) addOneOrMore(declared, desired[i] as DesiredIpEntry, desired[i] as DesiredIpEntry);
  const candidates = marked.filter((e) => !someHeld(declared.get(e), (want) => sameIpAttributes(want, e)));
  if (candidates.length === 0) return { live, notes: [] };
  const byFingerprint = new Map<string, DesiredIpEntry>();
  for (const entry of desired) {
    const fingerprint = ipFingerprint(entry);
    if (!byFingerprint.has(fingerprint)) byFingerprint.set(fingerprint, entry);
  }
  const replaced = new Map<LiveIpEntry, LiveIpEntry>();
  const notes = new NoteFolder('ip');
  for (const stored of candidates) {
    const want = byFingerprint.get(stored.fingerprint as string);
    if (!want) continue;
    const value = stored.ruleType === 'ip_range' ? want.value : stored.value;
    replaced.set(stored, {
      id: stored.id, client: stored.client, list: stored.list, ruleType: stored.ruleType, value,
      pools: want.pools, expiresAt: want.expiresAt, objectSize: stored.objectSize, owner, fingerprint: stored.fingerprint,
      ...(want.reason !== undefined ? { reason: want.reason } : {}),
    });
    const rewrites = ipRewrites({ ...plainIpEntry(want), value }, stored);
    if (rewrites.length > 0) notes.add(want.client, want.source, stored.id, `${value}: ${describeRewrites(rewrites)}`);
  }
  return { live: live.map((entry) => replaced.get(entry) ?? entry), notes: notes.done() };
}

/** One note per rewritten object, the rest folded into a count. */
class NoteFolder {
  private readonly notes: Note[] = [];
  private folded = 0;

  constructor(private readonly kind: Note['kind']) {}

  add(client: number, source: Note['source'], id: number, rewrites: string): void {
    if (this.notes.length >= MAX_REWRITE_NOTES) {
      this.folded++;
      return;
    }
    this.notes.push({
      level: 'info', kind: this.kind, client, source, id,
      message: `the service stored it differently (${rewrites}); its mark names this declaration, so it is kept as is`,
    });
  }

  done(): Note[] {
    const last = this.notes.at(-1);
    if (this.folded > 0 && last) {
      this.notes.push({ ...last, message: `and ${this.folded} more ${planClass(this.kind).noun}(s) the service stored differently, kept as is` });
    }
    return this.notes;
  }
}
