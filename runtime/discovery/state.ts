// Which tools a session has loaded through get_tool_schema, in load order. Bound to the session's
// index, so only authorized tools can ever be marked; a stored list restored on resume is filtered
// the same way (a tool no longer authorized is simply not restored).

import type { ToolIndex } from './toolIndex.js';

export interface DiscoveryState {
  /** Refs of the loaded tools, in the order they were first loaded. */
  loaded(): string[];
  isLoaded(nameOrRef: string): boolean;
  /** Marks a tool (ref or API name) loaded; false when the index does not hold it. Idempotent. */
  markLoaded(nameOrRef: string): boolean;
}

export function createDiscoveryState(index: ToolIndex, stored: readonly string[] = []): DiscoveryState {
  const order: string[] = [];
  const seen = new Set<string>();
  const mark = (nameOrRef: string): boolean => {
    const tool = index.lookup(nameOrRef);
    if (!tool) return false;
    if (!seen.has(tool.ref)) {
      seen.add(tool.ref);
      order.push(tool.ref);
    }
    return true;
  };
  for (const ref of stored) mark(ref);
  return {
    loaded: () => [...order],
    isLoaded: (nameOrRef) => {
      const tool = index.lookup(nameOrRef);
      return tool !== undefined && seen.has(tool.ref);
    },
    markLoaded: mark,
  };
}
