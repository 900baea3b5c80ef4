// The run's tool resolver: builtins, custom tools and MCP servers (started once, shared by every task,
// closed at the end). A ref that cannot be resolved is reported, and the agent goes on without it.

import type { McpServer, MissionGraph } from '../config/graph.js';
import type { ToolResolver } from './runContext.js';
import type { McpConnections } from './tools/mcp/connections.js';
import { buildToolRegistry } from './tools/registry.js';
import type { ToolSpec } from './tools/types.js';

export interface RunTools {
  resolver: ToolResolver;
  close(): Promise<void>;
}

export function createRunTools(graph: MissionGraph, onUnavailable: (ref: string, message: string) => void): RunTools {
  const mcp = new OnDemandMcp(graph.projectRoot);
  const registry = buildToolRegistry(graph, { mcp });
  return {
    resolver: {
      async resolve(refs) {
        const resolved = await registry.resolve(refs);
        for (const error of resolved.errors) onUnavailable(error.ref, error.message);
        return [...resolved] as ToolSpec[];
      },
    },
    close: () => mcp.closeAll(),
  };
}

/** Loads the MCP client (and its SDK, ~0.25 s) only when a mission actually uses an MCP server. */
class OnDemandMcp {
  private connections: Promise<McpConnections> | undefined;

  constructor(private readonly cwd: string) {}

  async listTools(server: McpServer): Promise<ToolSpec[]> {
    // Only plan and tools load a config without every variable's value; such a server cannot start.
    if (server.needsVariables !== undefined) {
      const needs = server.needsVariables.map((n) => `vars.${n}`).join(', ');
      throw new Error(`mcp server "${server.name}" needs ${needs}, which has no value: pass it with --var`);
    }
    this.connections ??= import('./tools/mcp/connections.js').then(({ McpConnections }) => new McpConnections({ cwd: this.cwd }));
    return (await this.connections).listTools(server);
  }

  async closeAll(): Promise<void> {
    if (this.connections) await (await this.connections).closeAll();
  }
}
