// Lists in the MissionGraph at their exact length. An array built by push keeps room for 17 items
// in V8, and a large config has hundreds of thousands of short lists (a task's tools, depends_on,
// router, …): stored as built, they were a third of the graph's memory. Empty lists are one shared
// frozen array; the graph is deep-frozen when loaded anyway.

const EMPTY: readonly never[] = Object.freeze([]);

/** `xs` at its exact length (the shared empty list when it is empty). */
export function exactList<T>(xs: readonly T[]): T[] {
  return (xs.length === 0 ? EMPTY : xs.slice()) as T[];
}
