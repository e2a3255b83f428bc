/**
 * Selected live objects → policy file texts, one per scope. Pure and
 * byte-stable: the same objects give the same files whatever their ids or
 * listing order.
 */
import type { Node } from 'yaml';
import { Document } from '../yaml-library.js';
import { compareStrings } from '../model/compare.js';
import { perClass, type ObjectClass, type ObjectClassModels } from '../model/object-class.js';
import { formatPolicyText } from '../fmt/canonical.js';
import { exportClass, exportedClasses, type ExportCounts, type YamlNodes } from './classes/index.js';
import type { ExportFile } from './export-file.js';
import { EXPORT_HEADER, fileNameOf, type PlacedObjects, type Scope } from './types.js';

export interface RenderOptions {
  readonly client: number;
  readonly schemaRef: string;
}

/** One file's live objects, by class. */
type FileObjects = { [K in ObjectClass]: ObjectClassModels[K]['live'][] };

interface FileContent {
  readonly scope: Scope;
  readonly objects: FileObjects;
}

export function renderFiles(placed: PlacedObjects, options: RenderOptions): ExportFile[] {
  const files = new Map<string, FileContent>();
  const objectsIn = (scope: Scope): FileObjects => {
    const name = fileNameOf(scope);
    let file = files.get(name);
    if (!file) {
      file = { scope, objects: perClass<FileObjects>(() => []) };
      files.set(name, file);
    }
    return file.objects;
  };
  const place = <K extends ObjectClass>(kind: K): void => {
    for (const { scope, live } of placed[kind]) objectsIn(scope)[kind].push(live);
  };
  exportedClasses().forEach(place);
  return [...files.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([name, file]) => ({
      name,
      // Already in `rampart fmt`'s form: `fmt --check` on a fresh export finds nothing.
      text: inFmtForm(renderFile(file, options)),
      ...counts(file.objects),
    }));
}

/** How many objects of each class the file holds. */
function counts(objects: FileObjects): ExportCounts {
  // Sound: each class's count goes under the field it names.
  return Object.fromEntries(exportedClasses().map((kind) => [exportClass(kind).counted, objects[kind].length])) as unknown as ExportCounts;
}

function inFmtForm(text: string): string {
  const formatted = formatPolicyText(text);
  return formatted.ok ? formatted.text : text;
}

function renderFile(file: FileContent, options: RenderOptions): string {
  const doc = new Document();
  const nodes: YamlNodes = {
    flow: (value) => doc.createNode(value, { flow: true }) as Node,
    block: (value) => doc.createNode(value) as Node,
  };
  const { scope } = file;

  const top: Record<string, unknown> = {
    version: 1,
    client: options.client,
    application: scope.kind === 'all' ? 'all' : scope.apps.length === 1 ? scope.apps[0] : nodes.flow(scope.apps),
    description: `${describeScope(scope)} (exported)`,
  };
  // Each class's sections, in the registry's order (`mode`/`rules`, then `ip_lists`).
  const sections = new Set<string>();
  const render = <K extends ObjectClass>(kind: K): void => {
    for (const [key, value] of Object.entries(exportClass(kind).render(file.objects[kind], nodes))) {
      top[key] = value;
      sections.add(key);
    }
  };
  exportedClasses().forEach(render);

  const root = doc.createNode(top);
  // A blank line before each class's sections.
  for (const pair of root.items) {
    const key = pair.key as Node & { value?: unknown };
    if (typeof key.value === 'string' && sections.has(key.value)) key.spaceBefore = true;
  }
  doc.contents = root;
  doc.commentBefore = [
    ` yaml-language-server: $schema=${options.schemaRef}`,
    ` ${EXPORT_HEADER} --client ${options.client}\` from the live account:`,
    ` ${describeScope(scope).toLowerCase()}. Rename rules freely; names are not sent to the API.`,
  ].join('\n');
  return doc.toString({ flowCollectionPadding: false, lineWidth: 120 });
}

function describeScope(scope: Scope): string {
  if (scope.kind === 'all') return 'Every application of the account';
  if (scope.apps.length === 1) return `Application ${scope.apps[0]}`;
  return `Applications ${scope.apps.join(', ')}`;
}
