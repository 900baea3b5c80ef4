// What a resumed run needs of the MCP tool lists an earlier process saw change: each server's
// latest `mcp.tools.changed` event. Listing those servers from these lists (until they report a
// change again) sends every agent the tools it held before the crash, in the same order.

import { z } from 'zod';

import type { Store } from '../../store/index.js';
import { McpToolInfoSchema, type McpToolInfo } from '../tools/mcp/toolInfo.js';

const ToolsChanged = z.object({ server: z.string(), tools: z.array(McpToolInfoSchema) });

export async function recordedToolLists(store: Store, runId: string): Promise<Map<string, McpToolInfo[]>> {
  const lists = new Map<string, McpToolInfo[]>();
  for (const event of await store.events.list(runId)) {
    if (event.type !== 'mcp.tools.changed') continue;
    const parsed = ToolsChanged.safeParse(event.data);
    // A row this version cannot read is skipped: the server is then listed afresh.
    if (parsed.success) lists.set(parsed.data.server, parsed.data.tools as McpToolInfo[]);
  }
  return lists;
}
