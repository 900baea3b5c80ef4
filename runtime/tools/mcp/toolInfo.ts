// What Squadron keeps of an MCP server's tool (name, description, input schema, idempotency) and
// how it becomes a ToolSpec named `mcp.<server>.<tool>`. The kept shape is plain JSON so the tool
// cache can store it and `squadron validate` can check refs without starting the server.

import { createHash } from 'node:crypto';

import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import type { JsonSchema } from '../../providers/types.js';

export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  /** `annotations.idempotentHint || annotations.readOnlyHint`. */
  idempotent: boolean;
}

export function toolInfoFromSdk(tool: Tool): McpToolInfo {
  const annotations = tool.annotations ?? {};
  const title = tool.title ?? annotations.title;
  const info: McpToolInfo = {
    name: tool.name,
    description: tool.description ?? title ?? '',
    inputSchema: { ...tool.inputSchema },
    idempotent: annotations.idempotentHint === true || annotations.readOnlyHint === true,
  };
  if (title !== undefined) info.title = title;
  return info;
}

export function mcpToolRef(server: string, tool: string): string {
  return `mcp.${server}.${tool}`;
}

/** Longest tool name every provider accepts (OpenAI's limit; Anthropic allows 128). */
const MAX_API_NAME = 64;

/**
 * `mcp_<server>_<tool>`, with characters the model APIs reject (`^[a-zA-Z0-9_-]+$`) replaced by `_`.
 * An over-long name is cut and suffixed with a hash of the full ref so it stays unique and stable.
 */
export function mcpApiName(server: string, tool: string): string {
  const ref = mcpToolRef(server, tool);
  const name = ref.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (name.length <= MAX_API_NAME) return name;
  const hash = createHash('sha256').update(ref).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_API_NAME - 9)}_${hash}`;
}
