// Lists in the MissionGraph at their exact length, and values shared where they are equal. An array built by push keeps room for 17 items
// in V8, and a large config has hundreds of thousands of short lists (a task's tools, depends_on,
// router, …): stored as built, they were a third of the graph's memory. Empty lists are one shared
// frozen array; the graph is deep-frozen when loaded anyway.

const EMPTY: readonly never[] = Object.freeze([]);

/** `xs` at its exact length (the shared empty list when it is empty). */
export function exactList<T>(xs: readonly T[]): T[] {
  return (xs.length === 0 ? EMPTY : xs.slice()) as T[];
}

/** How many lists with the same first item are kept to compare with (bounds the work per list). */
const CANDIDATES = 8;

/**
 * One array for each distinct list of the same items (compared by identity): the tasks and agents
 * that use exactly one toolset share the toolset's own list instead of holding a copy each.
 */
export class ListInterner<T> {
  private readonly byFirst = new Map<T, T[][]>();

  /** A list equal to `xs` seen before, else `xs` at its exact length (remembered). */
  intern(xs: readonly T[]): T[] {
    if (xs.length === 0) return exactList(xs);
    const first = xs[0]!;
    const known = this.byFirst.get(first);
    const same = known?.find((k) => k.length === xs.length && k.every((x, i) => x === xs[i]));
    if (same !== undefined) return same;
    const exact = xs.slice();
    if (known === undefined) this.byFirst.set(first, [exact]);
    else {
      if (known.length >= CANDIDATES) known.shift();
      known.push(exact);
    }
    return exact;
  }
}

/**
 * One object for each distinct set of field values (compared by identity) among objects with the
 * same `keyOf`: the tasks whose workers resolve alike (one tool list, model and settings) share one
 * frozen WorkerSpec instead of holding a copy each. Only the last object of each key is remembered.
 */
export class SameFieldsInterner<T extends object> {
  private readonly byKey = new Map<unknown, T>();

  constructor(private readonly keyOf: (x: T) => unknown) {}

  /** An object equal to `x` seen before, else `x` (remembered). */
  intern(x: T): T {
    const key = this.keyOf(x);
    const known = this.byKey.get(key);
    if (known !== undefined && sameFields(known, x)) return known;
    this.byKey.set(key, x);
    return x;
  }
}

function sameFields(a: object, b: object): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
}
