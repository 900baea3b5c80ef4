// The provider tool list for a worker's next turn under discovery, and the dispatcher for the two
// discovery tools. The list only grows and keeps a fixed order — discovery tools, then always_load in
// declared order, then loaded tools in load order — so the prompt-cache prefix survives each turn.

import type { ToolDefinition } from '../providers/types.js';
import type { ToolResult, ToolSpec } from '../tools/types.js';
import { GET_TOOL_SCHEMA, SEARCH_TOOLS, discoveryToolDefinitions } from './definitions.js';
import { searchTools } from './searchTools.js';
import type { DiscoveryState } from './state.js';
import { getToolSchema } from './toolSchema.js';
import type { ToolIndex } from './toolIndex.js';

export function toolsForTurn(state: DiscoveryState, alwaysLoad: readonly string[], all: readonly ToolSpec[]): ToolDefinition[] {
  const byName = new Map<string, ToolSpec>();
  for (const tool of all) byName.set(tool.apiName, tool);
  for (const tool of all) if (!byName.has(tool.ref)) byName.set(tool.ref, tool);

  const out = discoveryToolDefinitions();
  const included = new Set<string>();
  for (const nameOrRef of [...alwaysLoad, ...state.loaded()]) {
    const tool = byName.get(nameOrRef);
    if (!tool || included.has(tool.ref)) continue;
    included.add(tool.ref);
    out.push({ name: tool.apiName, description: tool.description, inputSchema: tool.inputSchema });
  }
  return out;
}

/** Runs search_tools or get_tool_schema; undefined when `name` is not a discovery tool. */
export function handleDiscoveryCall(name: string, input: unknown, index: ToolIndex, state: DiscoveryState): ToolResult | undefined {
  if (name === SEARCH_TOOLS) return searchTools(index, input);
  if (name === GET_TOOL_SCHEMA) return getToolSchema(index, state, input);
  return undefined;
}
