/**
 * The layout policy files use for flow collections: `[a, b]` sequences and
 * `{ a: b }` maps, which the `yaml` library cannot write together (it pads
 * both or neither). For `fmt` and for the rules `tune` adds.
 */
import type * as Yaml from 'yaml';
import { CST, Parser } from '../yaml-library.js';

/** `{a: b}` → `{ a: b }`, token by token (the library pads flow sequences and maps alike or not at all). */
export function padFlowMaps(text: string): string {
  let out = '';
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document') {
      out += CST.stringify(token);
      continue;
    }
    CST.visit(token, (item) => {
      for (const node of [item.key, item.value] as (Yaml.CST.Token | null | undefined)[]) {
        if (node?.type !== 'flow-collection' || node.start.source !== '{' || node.items.length === 0) continue;
        node.start.source = '{ ';
        const end = node.end[0];
        if (end?.source === '}') end.source = ' }';
      }
    });
    out += CST.stringify(token);
  }
  return out;
}
