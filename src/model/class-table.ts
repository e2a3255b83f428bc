/**
 * One layer's table of object classes (the policy, live, plan, render, apply,
 * audit, impact and export sides): seeded with the built-in classes' entries,
 * typed so that a built-in class missing from a seed fails to compile, and
 * open to a class registered while the process runs. A registered class is
 * unknown to the compiler: every layer reaches it through its table, never
 * by asking which class a change is. The third-class test
 * (test/unit/third-class) defines one in test code and runs it through the
 * pipeline; docs/architecture.md lists the registration points.
 */
import { InternalError } from '../errors.js';
import type { ObjectClass } from './class-models.js';

export class ClassTable<Entry> {
  private readonly entries: Map<string, Entry>;
  /** `kinds()`, kept until a class is registered or taken out: it is asked for per document and per state. */
  private kindList: readonly ObjectClass[] | undefined;

  /**
   * `side`: what the layer's entry is, in an error (`apply side`). `seed`: the
   * built-in classes' entries, each typed for its class where it is declared.
   */
  constructor(private readonly side: string, seed: { readonly [K in ObjectClass]: unknown }) {
    // Sound: each seed entry is the layer's side of the class it is keyed by, and the table hands it only that class's objects.
    this.entries = new Map(Object.entries(seed) as [string, Entry][]);
  }

  /** The entry of a class; a class registered without this layer's side is a bug the message names. */
  get(kind: ObjectClass): Entry {
    const entry = this.entries.get(kind);
    if (entry === undefined) throw new InternalError(`object class "${kind}" has no ${this.side} registered`);
    return entry;
  }

  has(kind: ObjectClass): boolean {
    return this.entries.has(kind);
  }

  /** The classes with an entry, built-in first, then in the order they were registered. */
  kinds(): readonly ObjectClass[] {
    // Sound: a registered kind is a class of the running process, as ObjectClass names the built-in ones.
    return (this.kindList ??= [...this.entries.keys()] as ObjectClass[]);
  }

  /** Adds a class's entry; the returned function takes it out again (a test's cleanup). */
  register(kind: string, entry: Entry): () => void {
    if (this.entries.has(kind)) throw new InternalError(`object class "${kind}" already has ${this.side}`);
    this.entries.set(kind, entry);
    this.kindList = undefined;
    return () => {
      this.entries.delete(kind);
      this.kindList = undefined;
    };
  }
}
