// The run's tool resolver: builtins, custom tools and MCP servers (started once, shared by every task,
// closed at the end). A ref that cannot be resolved is reported, and the agent goes on without it.

import type { McpPromptSkill, McpServer, MissionGraph, PluginBlock } from '../../config/graph.js';
import type { PluginHost } from '../tools/plugins/pluginHost.js';
import { mcpPromptRef } from '../../config/toolRefs.js';
import { secretValues } from '../../config/secrets.js';
import type { ToolResolver } from '../agents/runContext.js';
import type { RunEvent } from '../kernel/events.js';
import type { McpConnectionOptions, McpConnections, McpSampler, McpToolInfo } from '../tools/mcp/connections.js';
import type { McpElicitor } from '../tools/mcp/client.js';
import { mcpToolRef } from '../tools/mcp/toolInfo.js';
import { buildToolRegistry } from '../tools/registry.js';
import { textResult, type ToolResult, type ToolSpec } from '../tools/types.js';
import type { PromptSkillsOutcome } from '../tools/mcp/prompts.js';

export interface RunTools {
  resolver: ToolResolver;
  close(): Promise<void>;
}

/** Only for a run (plan and tools just list tools). */
export interface RunToolsOptions {
  /** The run's workspace: the root of every MCP server without `roots`. */
  workspaceDir: string;
  /** MCP progress and log messages become run events. */
  emit: (event: RunEvent) => void;
  /** Answers the sampling requests of servers with `sampling = true`. */
  sample?: McpSampler;
  /** Asks the run's operator the servers' questions (elicitation). */
  elicit?: McpElicitor;
  /** On resume: each server's latest recorded tool list (`mcp.tools.changed`). */
  knownTools?: ReadonlyMap<string, McpToolInfo[]>;
  /** The trace context an MCP tool call carries (telemetry), by call id. */
  traceMeta?: (callId: string) => Record<string, string> | undefined;
  /** A test's answers, by tool ref: these tools are never executed (squadron test's mock_tool). */
  mocks?: ReadonlyMap<string, ToolResult>;
}

export function createRunTools(graph: MissionGraph, onUnavailable: (ref: string, message: string) => void, options?: RunToolsOptions): RunTools {
  const emit = options?.emit ?? (() => undefined);
  const promptWarned = new Set<string>();
  const toolListeners: ((server: string) => Promise<void>)[] = [];
  const mcp = new OnDemandMcp({
    ...(options?.knownTools ? { knownTools: options.knownTools } : {}),
    onToolsChanged: async (server, tools) => {
      // Recorded before any agent sees the new list: a resume then rebuilds the same tools.
      emit({ type: 'mcp.tools.changed', server, tools });
      await Promise.all(toolListeners.map((listener) => listener(server)));
    },
    onPromptsChanged: (server) => {
      if (promptWarned.has(server)) return;
      promptWarned.add(server);
      emit({ type: 'warning', message: promptsChangedWarning(server) });
    },
    cwd: graph.projectRoot,
    allowedHosts: graph.allowedHosts ?? [],
    secrets: secretValues(graph.variables, graph.models, graph.derivedSecrets),
    ...(options ? { defaultRoots: [options.workspaceDir] } : {}),
    ...(options?.sample ? { sample: options.sample } : {}),
    ...(options?.elicit ? { elicit: options.elicit } : {}),
    ...(options?.traceMeta ? { traceMeta: options.traceMeta } : {}),
    onProgress: (p) => {
      const event: RunEvent = { type: 'tool.progress', task: p.task, agent: p.agent, callId: p.callId, tool: mcpToolRef(p.server, p.tool), progress: p.progress };
      if (p.total !== undefined) event.total = p.total;
      if (p.message !== undefined) event.message = p.message;
      emit(event);
    },
    onLog: (m) => emit({ type: 'mcp.log', server: m.server, level: m.level, data: m.data, ...(m.logger !== undefined ? { logger: m.logger } : {}) }),
  });
  const plugins = (graph.plugins?.length ?? 0) > 0 ? lazyPluginHost(graph.projectRoot) : undefined;
  const registry = buildToolRegistry(graph, { mcp, ...(plugins ? { plugins } : {}) });
  return {
    resolver: {
      async resolve(refs) {
        const resolved = await registry.resolve(refs);
        for (const error of resolved.errors) onUnavailable(error.ref, error.message);
        const specs = [...resolved] as ToolSpec[];
        const mocks = options?.mocks;
        return mocks === undefined ? specs : specs.map((spec) => mocked(spec, mocks.get(spec.ref)));
      },
      onToolsChanged(listener) {
        toolListeners.push(listener);
        return () => {
          const at = toolListeners.indexOf(listener);
          if (at >= 0) toolListeners.splice(at, 1);
        };
      },
      async promptSkills(name) {
        const ref = mcpPromptRef(name);
        const server = ref && graph.mcpServers.find((s) => s.name === ref.server);
        if (!ref || !server) return { ok: false, error: `unknown MCP prompts "${name}"` };
        try {
          return await mcp.promptSkills(server, ref.prompt);
        } catch (err) {
          return { ok: false, error: err instanceof Error ? err.message : String(err) };
        }
      },
      async loadPrompt(prompt, args, signal) {
        const server = graph.mcpServers.find((s) => s.name === prompt.server);
        if (!server) return textResult(`unknown MCP server "${prompt.server}"`, true);
        return mcp.loadPrompt(server, prompt, args, signal);
      },
    },
    close: async () => {
      await plugins?.close();
      await mcp.closeAll();
    },
  };
}

/** Loads the plugin client (gRPC) only when the config declares a plugin; plugins start on first use. */
function lazyPluginHost(projectRoot: string): { listTools(plugin: PluginBlock): Promise<ToolSpec[]>; close(): Promise<void> } {
  let host: Promise<PluginHost> | undefined;
  const open = (): Promise<PluginHost> => (host ??= import('../tools/plugins/pluginHost.js').then((m) => m.createPluginHost(projectRoot)));
  return {
    listTools: async (plugin) => (await open()).listTools(plugin),
    close: async () => {
      if (host) (await host).closeAll();
    },
  };
}

/** The tool answering with the test's result instead of executing, marked `mocked` in the ledger. */
function mocked(spec: ToolSpec, result: ToolResult | undefined): ToolSpec {
  if (result === undefined) return spec;
  return { ...spec, idempotent: true, execute: async () => ({ ...structuredClone(result), mocked: true }) };
}

/** Loads the MCP client (and its SDK, ~0.25 s) only when a mission actually uses an MCP server. */
class OnDemandMcp {
  private connections: Promise<McpConnections> | undefined;

  constructor(private readonly options: McpConnectionOptions) {}

  async listTools(server: McpServer): Promise<ToolSpec[]> {
    this.checkVariables(server);
    return (await this.open()).listTools(server);
  }

  /** Only plan and tools load a config without every variable's value; such a server cannot start. */
  private checkVariables(server: McpServer): void {
    if (server.needsVariables === undefined) return;
    const needs = server.needsVariables.map((n) => `vars.${n}`).join(', ');
    throw new Error(`mcp server "${server.name}" needs ${needs}, which has no value: pass it with --var`);
  }

  async taskOnlyTools(server: McpServer): Promise<string[]> {
    if (!this.connections) return [];
    return (await this.connections).taskOnlyTools(server);
  }

  async resourcesTool(server: McpServer): Promise<ToolSpec> {
    return (await this.open()).resourcesTool(server);
  }

  async promptSkills(server: McpServer, prompt?: string): Promise<PromptSkillsOutcome> {
    this.checkVariables(server);
    return (await this.open()).promptSkills(server, prompt);
  }

  async loadPrompt(server: McpServer, prompt: McpPromptSkill, args: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<ToolResult> {
    return (await this.open()).loadPrompt(server, prompt, args, signal);
  }

  private open(): Promise<McpConnections> {
    this.connections ??= import('../tools/mcp/connections.js').then(({ McpConnections }) => new McpConnections(this.options));
    return this.connections;
  }

  async closeAll(): Promise<void> {
    if (this.connections) await (await this.connections).closeAll();
  }
}

/**
 * Said once per server and run process. Refreshing prompt skills would change agents' system prompts
 * (their skill catalogs) mid-session, which neither the prompt cache nor resume can follow.
 */
function promptsChangedWarning(server: string): string {
  return `mcp server "${server}" changed its prompts: agents already working keep the prompt skills (mcp.${server}.prompts) they were given, so they are not offered a new prompt and loading a removed one fails; agents started from now on get the server's current prompts`;
}
