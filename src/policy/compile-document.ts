/**
 * One parsed document → its diagnostics and normalized objects: the schema
 * first, then the semantic checks on every part the schema accepted, so one
 * run reports every problem of the file.
 */
import { isIpApiName, type IpApiName } from '../model/ip-list-apis.js';
import { Interner } from '../model/interner.js';
import { objectsByClass, type ObjectsByClass } from '../model/object-class.js';
import { policyClass } from './classes/index.js';
import type { DocumentContext } from './context.js';
import type { PolicyDocument } from './document.js';
import { Reporter } from './reporter.js';
import { isRecord } from './schema-messages.js';
import { validateSchema } from './schema.js';
import { pointer } from './source-map.js';
import type { Diagnostic } from '../diagnostic.js';
import type { ParsedPolicy } from './yaml.js';

/** The document's diagnostics, and the objects of each class it declares. */
export interface CompiledDocument {
  readonly file: string;
  readonly objects: ObjectsByClass<'desired'>;
  readonly diagnostics: Diagnostic[];
  readonly client?: number;
  /** Where `client:` is written; on the clean path found only when read (an error about the account). */
  readonly clientAt?: { readonly line: number; readonly col: number };
  /** `ip_api:`, where the file names its account's IP-list API, and where it is written (found only when read). */
  readonly ipApi?: IpApiName;
  readonly ipApiAt?: { readonly line: number; readonly col: number };
  /** The applications `application:` names (not `all`), and where it is written (found only when read). */
  readonly applications?: readonly number[];
  readonly applicationAt?: { readonly line: number; readonly col: number };
  /** Unix seconds the document's result was computed for. */
  readonly now: number;
  /** Every expiry compared with `now` (see `stillValidAt`). */
  readonly expiries: readonly number[];
}

/** Whether the document compiles the same at `now`: no expiry lies between its `now` and this one. */
export function stillValidAt(compiled: CompiledDocument, now: number): boolean {
  const low = Math.min(compiled.now, now);
  const high = Math.max(compiled.now, now);
  return !compiled.expiries.some((seconds) => seconds > low && seconds <= high);
}

export function compileDocument(parsed: ParsedPolicy, now: number): CompiledDocument {
  const { file, map } = parsed;
  const report = new Reporter(file, map);
  const expiries: number[] = [];
  // A document that declares nothing: made only for one (most documents declare something).
  const empty = (diagnostics: Diagnostic[]): CompiledDocument => ({ file, objects: objectsByClass<'desired'>(() => []), diagnostics, now, expiries });
  if (parsed.data === undefined) return empty(parsed.diagnostics);
  if (parsed.data === null) {
    report.warning('empty-file', 'the file holds no policy; it is ignored', []);
    return empty([...parsed.diagnostics, ...report.diagnostics]);
  }
  const schema = validateSchema(file, parsed.data, map);
  if (!isRecord(parsed.data)) return empty([...parsed.diagnostics, ...schema.diagnostics]);

  const doc = parsed.data as unknown as PolicyDocument;
  const errorPaths = schema.errorPaths;
  const ctx: DocumentContext = {
    file,
    report,
    client: validId(doc.client) ? doc.client : undefined,
    applications: applicationsOf(doc.application),
    clean: (path) => {
      if (errorPaths.length === 0) return true;
      const ptr = pointer(path);
      return !errorPaths.some((p) => p === ptr || p.startsWith(`${ptr}/`));
    },
    now,
    expiries,
    intern: new Interner(),
  };
  const objects = objectsByClass<'desired'>((kind) => policyClass(kind).compile(doc, ctx));
  return {
    file,
    objects,
    diagnostics: [...parsed.diagnostics, ...schema.diagnostics, ...report.diagnostics],
    ...(ctx.client !== undefined ? { client: ctx.client, clientAt: report.source(['client'], 'client') } : {}),
    ...(ctx.client !== undefined && Array.isArray(ctx.applications) ? { applications: ctx.applications, applicationAt: report.source(['application'], 'application') } : {}),
    ...(ctx.client !== undefined && isIpApiName(doc.ip_api) ? { ipApi: doc.ip_api, ipApiAt: report.source(['ip_api'], 'ip_api') } : {}),
    now,
    expiries,
  };
}

function validId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function applicationsOf(value: unknown): readonly number[] | 'all' | undefined {
  if (value === 'all') return 'all';
  if (validId(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(validId) && new Set(value).size === value.length) {
    return [...value].sort((a, b) => a - b);
  }
  return undefined;
}
