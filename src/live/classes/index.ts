/** The live reader of each object class, by the class's name (model/object-class.ts). */
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { BuiltInLiveClass, LiveClass } from './class.js';
import { IP_READER } from './ip.js';
import { RULE_READER } from './rules.js';

const BUILT_IN: { readonly [K in ObjectClass]: BuiltInLiveClass<ObjectClassModels[K]['live'], ObjectClassModels[K]['desired']> } = {
  rule: RULE_READER,
  ip: IP_READER,
};

const LIVE_CLASSES = new ClassTable<LiveClass<unknown>>('live reader', BUILT_IN);

/** A class's live reader: the listings that hold its objects, and the capabilities it has. */
export function registerLiveClass<L>(kind: string, reader: LiveClass<L>): () => void {
  // Sound: the table hands the class only objects its reader made, and the class's own declarations.
  return LIVE_CLASSES.register(kind, reader as unknown as LiveClass<unknown>);
}

/** The reader of a class, by name. */
export function liveClass<K extends ObjectClass>(kind: K): LiveClass<ObjectClassModels[K]['live']> {
  // Sound: the table holds each class's reader under its name.
  return LIVE_CLASSES.get(kind) as LiveClass<ObjectClassModels[K]['live']>;
}
