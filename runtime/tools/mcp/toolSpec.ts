// An MCP server's tool as a ToolSpec: the input is validated against the server's schema here (so a
// malformed call never reaches the server), then the call goes through the run's connections. The
// secrets the server's config holds are masked out of its results: what a server was handed to
// authenticate is not the model's to read.

import type { McpServer } from '../../../config/graph.js';
import { MIN_SECRET_LENGTH } from '../../../core/secrets.js';
import { createSecretRedactor, type SecretValue } from '../../../store/redact.js';
import { invalidInputResult, validateToolInput } from '../inputValidation.js';
import type { ToolContext, ToolResult, ToolSpec } from '../types.js';
import type { McpRequests } from './requests.js';
import { mcpApiName, mcpToolRef, type McpToolInfo } from './toolInfo.js';

export function mcpToolSpec(server: McpServer, info: McpToolInfo, connections: McpRequests, instructions?: string, secrets: readonly SecretValue[] = []): ToolSpec {
  const apiName = mcpApiName(server.name, info.name);
  const mask = configSecretsMask(server, secrets);
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
      const result = await connections.callTool(server, info.name, checked.value as Record<string, unknown>, {
        signal: ctx.signal,
        caller: { task: ctx.task, agent: ctx.agent, callId: ctx.callId, ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}) },
      });
      if (mask === undefined) return result;
      const masked: ToolResult = { ...result, content: result.content.map((c) => (c.type === 'text' ? { ...c, text: mask(c.text) } : c)) };
      // The mask knows a secret's JSON-escaped forms and writes no quote: the JSON stays valid.
      if (result.structured !== undefined) masked.structured = JSON.parse(mask(JSON.stringify(result.structured))) as unknown;
      if (result.resources !== undefined) masked.resources = JSON.parse(mask(JSON.stringify(result.resources))) as typeof result.resources;
      return masked;
    },
  };
}

/** A one-way mask of the secrets written into the server's config, or undefined when it holds none. */
function configSecretsMask(server: McpServer, secrets: readonly SecretValue[]): ((text: string) => string) | undefined {
  const t = server.transport;
  const config = t.kind === 'stdio' ? [t.command, ...t.args, ...Object.values(t.env)] : [t.url, ...Object.values(t.headers)];
  const used = secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH && config.some((c) => c.includes(s.value)));
  return used.length === 0 ? undefined : createSecretRedactor(used).mask;
}
