/** The live reader of each object class, by the class's name (model/object-class.ts). */
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { LiveClass } from './class.js';
import { IP_READER } from './ip.js';
import { RULE_READER } from './rules.js';

export const LIVE_CLASSES: { readonly [K in ObjectClass]: LiveClass<ObjectClassModels[K]['live']> } = {
  rule: RULE_READER,
  ip: IP_READER,
};
