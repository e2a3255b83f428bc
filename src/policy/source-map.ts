/**
 * Where each value of a parsed document came from. Keys are JSON pointers
 * (`/rules/0/point`), the same paths ajv reports, so schema errors and
 * semantic checks both land on the right line and column.
 */
import type { Position } from './types.js';

export type Path = readonly (string | number)[];

export function pointer(path: Path): string {
  return path.map((part) => '/' + String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export class SourceMap {
  private readonly values = new Map<string, Position>();
  private readonly keys = new Map<string, Position>();

  setValue(ptr: string, position: Position): void {
    this.values.set(ptr, position);
  }

  setKey(ptr: string, position: Position): void {
    this.keys.set(ptr, position);
  }

  /** Position of the value at `ptr`, or of its nearest known ancestor. */
  value(ptr: string): Position {
    let current = ptr;
    for (;;) {
      const found = this.values.get(current);
      if (found) return found;
      if (current === '') return { line: 1, col: 1 };
      current = current.slice(0, current.lastIndexOf('/'));
    }
  }

  /** Position of the key naming the value at `ptr` (the value's own position for list items). */
  key(ptr: string): Position {
    return this.keys.get(ptr) ?? this.value(ptr);
  }

  at(path: Path): Position {
    return this.value(pointer(path));
  }

  keyAt(path: Path): Position {
    return this.key(pointer(path));
  }
}
