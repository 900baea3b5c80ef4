// An MCP server's tool as a ToolSpec: the input is validated against the server's schema here (so a
// malformed call never reaches the server), then the call goes through the run's connections.

import type { McpServer } from '../../../config/graph.js';
import { invalidInputResult, validateToolInput } from '../inputValidation.js';
import type { ToolContext, ToolResult, ToolSpec } from '../types.js';
import type { McpRequests } from './requests.js';
import { mcpApiName, mcpToolRef, type McpToolInfo } from './toolInfo.js';

export function mcpToolSpec(server: McpServer, info: McpToolInfo, connections: McpRequests, instructions?: string): ToolSpec {
  const apiName = mcpApiName(server.name, info.name);
  return {
    ref: mcpToolRef(server.name, info.name),
    apiName,
    description: info.description || `Tool "${info.name}" of MCP server "${server.name}".`,
    inputSchema: info.inputSchema,
    group: `mcp.${server.name}`,
    source: 'mcp',
    idempotent: info.idempotent,
    ...(info.hints ? { hints: info.hints } : {}),
    ...(instructions ? { groupInstructions: instructions } : {}),
    async execute(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      // Models often send nothing at all for a tool without parameters.
      const args = input === undefined || input === null ? {} : input;
      const checked = validateToolInput(info.inputSchema, args);
      if (!checked.ok) return invalidInputResult(apiName, checked.errors);
      if (typeof checked.value !== 'object' || checked.value === null || Array.isArray(checked.value)) {
        return invalidInputResult(apiName, ['input: expected object']);
      }
      return connections.callTool(server, info.name, checked.value as Record<string, unknown>, {
        signal: ctx.signal,
        caller: { task: ctx.task, agent: ctx.agent, callId: ctx.callId, ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}) },
      });
    },
  };
}
