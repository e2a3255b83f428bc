/**
 * Checks across all files, on the normalized objects: each class's own
 * (classes/: the same rule twice, two modes for the same traffic, the same
 * value twice or in two lists, nested subnets). No check spans two classes
 * yet; one would be a pass of its own here.
 */
import type { Diagnostic } from '../diagnostic.js';
import { registeredClasses, type ObjectClass, type ObjectsByClass } from '../model/object-class.js';
import { policyClass } from './classes/index.js';

export function crossChecks(objects: ObjectsByClass<'desired'>): Diagnostic[] {
  return registeredClasses().flatMap(<K extends ObjectClass>(kind: K) => policyClass(kind).conflicts(objects[kind]));
}
