/**
 * The pure core of `rampart export`: live state → policy files. Every file
 * is validated with the same code `rampart validate` runs, and every exported
 * object must read back as exactly the live object it came from (same
 * identity, same comment, reason and expiry), so `plan` on the output finds
 * nothing to change. An object that fails either check is left out and
 * reported instead of breaking the export.
 */
import { ExportCheckError } from '../errors.js';
import { objectsOf, type ObjectClass, type ObjectClassModels } from '../model/object-class.js';
import type { LiveState } from '../model/state.js';
import { loadPolicyTexts } from '../policy/validate.js';
import type { Diagnostic } from '../diagnostic.js';
import { exportClass, exportedClasses } from './classes/index.js';
import { buildRecord } from './record.js';
import { renderFiles, type RenderOptions } from './render.js';
import { selectObjects, sortSkipped } from './select.js';
import type { ExportResult } from './export-result.js';
import { placedByClass, type ExportOptions, type Placed, type PlacedObjects, type Skipped } from './types.js';

export function buildExport(live: LiveState, options: ExportOptions): ExportResult {
  const selection = selectObjects(live, options);
  const skipped: Skipped[] = [...selection.skipped];
  const render: RenderOptions = { client: options.client, schemaRef: options.schemaRef };
  const now = new Date(options.now * 1000);
  const check = (placed: PlacedObjects) => loadPolicyTexts(texts(renderFiles(placed, render)), { now });
  let placed = selection.placed;

  // Objects that do not validate on their own: found one by one, only when the whole fails.
  let result = check(placed);
  if (!result.desired) {
    const bad = new Set<Placed<unknown>>();
    const findInvalid = <K extends ObjectClass>(kind: K): void => {
      for (const one of placed[kind]) {
        const problem = firstError(check(alone(kind, one)).diagnostics);
        if (problem) {
          bad.add(one);
          skipped.push({ kind, ...exportClass(kind).handle(one.live), reason: 'invalid', detail: problem });
        }
      }
    };
    exportedClasses().forEach(findInvalid);
    placed = without(placed, bad);
    result = check(placed);
    if (!result.desired) throw new ExportCheckError(result.diagnostics.filter((d) => d.severity === 'error'));
  }

  // Every object must come back as itself.
  const { desired } = result;
  const lost = new Set<Placed<unknown>>();
  const findLost = <K extends ObjectClass>(kind: K): void => {
    const cls = exportClass(kind);
    const readsBack = cls.readsBack(objectsOf<K, 'desired'>(desired, kind));
    for (const one of placed[kind]) {
      if (readsBack(one.live)) continue;
      lost.add(one);
      skipped.push({ kind, ...cls.handle(one.live), reason: 'no-round-trip', detail: cls.lostDetail });
    }
  };
  exportedClasses().forEach(findLost);
  if (lost.size > 0) placed = without(placed, lost);
  const files = renderFiles(placed, render);
  if (lost.size > 0) {
    const final = loadPolicyTexts(texts(files), { now });
    if (!final.desired) throw new ExportCheckError(final.diagnostics.filter((d) => d.severity === 'error'));
  }
  return { files, skipped: sortSkipped(skipped), record: buildRecord(options.client, placed, files) };
}

/** An export of one object alone. */
function alone<K extends ObjectClass>(kind: K, one: Placed<ObjectClassModels[K]['live']>): PlacedObjects {
  return { ...placedByClass(() => []), [kind]: [one] };
}

/** The placed objects but those left out. */
function without(placed: PlacedObjects, left: ReadonlySet<Placed<unknown>>): PlacedObjects {
  return placedByClass((kind) => placed[kind].filter((one) => !left.has(one)));
}

function texts(files: readonly { name: string; text: string }[]): { file: string; text: string }[] {
  return files.map((f) => ({ file: f.name, text: f.text }));
}

function firstError(diagnostics: readonly Diagnostic[]): string | undefined {
  const error = diagnostics.find((d) => d.severity === 'error');
  return error ? `${error.message} [${error.code}]` : undefined;
}

