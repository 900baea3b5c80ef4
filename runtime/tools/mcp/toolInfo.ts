// What Squadron keeps of an MCP server's tool (name, description, input schema, idempotency) and
// how it becomes a ToolSpec named `mcp.<server>.<tool>`. The kept shape is plain JSON so the tool
// cache can store it and `squadron validate` can check refs without starting the server.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import type { JsonSchema } from '../../providers/types.js';

export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  /** `annotations.idempotentHint || annotations.readOnlyHint`. */
  idempotent: boolean;
  /** The server's hints that are true (`readOnlyHint` → `read-only`…), in a fixed order; absent when none. */
  hints?: McpToolHint[];
  /** `execution.taskSupport = "required"`: callable only as an MCP task, which Squadron does not run. */
  taskRequired?: true;
}

export type McpToolHint = 'read-only' | 'destructive' | 'idempotent' | 'open-world';

/** A kept McpToolInfo read back (the validate cache, a run's recorded tool lists). */
export const McpToolInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  idempotent: z.boolean(),
  hints: z.array(z.enum(['read-only', 'destructive', 'idempotent', 'open-world'])).optional(),
  taskRequired: z.literal(true).optional(),
});

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
  const hints = (
    [
      [annotations.readOnlyHint, 'read-only'],
      [annotations.destructiveHint, 'destructive'],
      [annotations.idempotentHint, 'idempotent'],
      [annotations.openWorldHint, 'open-world'],
    ] as const
  ).flatMap(([on, hint]) => (on === true ? [hint] : []));
  if (hints.length > 0) info.hints = hints;
  if (tool.execution?.taskSupport === 'required') info.taskRequired = true;
  return info;
}

/** Tools Squadron cannot call: they only run as MCP tasks. */
export function isCallable(info: McpToolInfo): boolean {
  return info.taskRequired !== true;
}

export function mcpToolRef(server: string, tool: string): string {
  return `mcp.${server}.${tool}`;
}

/** The naming rule lives in config, so the loader can check names without starting servers. */
export { mcpApiName } from '../../../config/toolNames.js';
