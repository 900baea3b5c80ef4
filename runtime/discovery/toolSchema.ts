// The get_tool_schema handler and the one "unknown tool" error shared by schema requests and tool
// calls. A name outside the index gets the same answer whether the tool does not exist or exists but
// is not authorized: the error is computed from the name and the index only.

import type { ToolResult } from '../tools/types.js';
import { textResult } from '../tools/types.js';
import { GET_TOOL_SCHEMA, describeIssues, getToolSchemaInput } from './definitions.js';
import type { DiscoveryState } from './state.js';
import type { ToolIndex } from './toolIndex.js';

export function getToolSchema(index: ToolIndex, state: DiscoveryState, input: unknown): ToolResult {
  const parsed = getToolSchemaInput.safeParse(input ?? {});
  if (!parsed.success) return textResult(`${GET_TOOL_SCHEMA}: invalid input: ${describeIssues(parsed.error)}`, true);
  const tool = index.lookup(parsed.data.name.trim());
  if (!tool) return unknownToolResult(index, parsed.data.name);
  state.markLoaded(tool.ref);
  return textResult(JSON.stringify({ name: tool.apiName, description: tool.description, input_schema: tool.inputSchema }));
}

const MAX_ECHO = 100;

/** `Unknown tool "x"`, with up to three similar names from the index to recover from a typo. */
export function unknownToolResult(index: ToolIndex, name: string): ToolResult {
  const shown = name.length > MAX_ECHO ? `${name.slice(0, MAX_ECHO)}…` : name;
  const similar = index
    .rank(name)
    .slice(0, 3)
    .map((r) => r.tool.apiName);
  const hint = similar.length ? ` Similar: ${similar.join(', ')}.` : '';
  return textResult(`Unknown tool "${shown}". Use search_tools to find the exact name of a tool you hold.${hint}`, true);
}
