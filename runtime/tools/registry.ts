// Resolves canonical tool refs (`builtins.*`, `tools.<n>`, `mcp.<s>.<t>`, `mcp.<s>.all`) into
// ToolSpecs, in the order given, `.all` expanded in place in the server's order, duplicates dropped.
// A ref that cannot be resolved (unknown tool, unreachable server) is an error value, not a throw.

import type { McpServer, MissionGraph, PluginBlock } from '../../config/graph.js';
import { builtinToolSpecs, type BuiltinOptions } from './builtins/index.js';
import { customToolSpec } from './custom.js';
import { RESOURCES_TOOL } from '../../config/toolRefs.js';
import { secretValues } from '../../config/secrets.js';
import { MIN_SECRET_LENGTH } from '../../core/secrets.js';
import { createSecretRedactor } from '../../store/redact.js';
import type { ToolSpec } from './types.js';

export interface ToolRefError {
  ref: string;
  message: string;
}

/**
 * The resolved specs (an array, usable as `ToolSpec[]`) plus the refs that could not be resolved.
 * Callers decide whether a missing tool fails the task or is reported and skipped.
 */
export type ResolvedTools = ToolSpec[] & { readonly errors: readonly ToolRefError[] };

/** Some tools of a ref resolved, others (named) could not: `mcp.<server>.all` with task-only tools. */
interface Partly {
  specs: ToolSpec[];
  errors: ToolRefError[];
}

export interface ToolRegistry {
  resolve(refs: readonly string[]): Promise<ResolvedTools>;
}

export interface ToolRegistryDeps {
  /**
   * Lists an MCP server's tools (McpConnections, or anything that starts it on demand), and gives
   * its resources tool (`mcp.<server>.resources`) without contacting it.
   */
  mcp: {
    listTools(server: McpServer): Promise<ToolSpec[]>;
    resourcesTool?(server: McpServer): ToolSpec | Promise<ToolSpec>;
    /** Names of the server's tools that only run as MCP tasks (left out of listTools). */
    taskOnlyTools?(server: McpServer): Promise<string[]>;
  };
  builtins?: BuiltinOptions;
  /** Starts a Go plugin on first use and lists its tools (runtime/tools/plugins). */
  plugins?: { listTools(plugin: PluginBlock): Promise<ToolSpec[]> };
}

export function buildToolRegistry(graph: MissionGraph, deps: ToolRegistryDeps): ToolRegistry {
  // The project's allowed_hosts reach every HTTP tool, builtin or custom.
  // Its secrets are masked out of the URLs their error messages name.
  const builtinOptions: BuiltinOptions = { ...deps.builtins, http: { allowedHosts: graph.allowedHosts ?? [], ...secretsMask(graph), ...deps.builtins?.http } };
  const builtins = new Map(builtinToolSpecs(builtinOptions).map((s) => [s.ref, s]));
  const custom = new Map<string, ToolSpec>();
  const servers = new Map(graph.mcpServers.map((s) => [s.name, s]));

  function customSpec(name: string): ToolSpec | undefined {
    let spec = custom.get(name);
    if (!spec) {
      const tool = graph.customTools.find((t) => t.name === name);
      if (!tool) return undefined;
      spec = customToolSpec(tool, builtinOptions, graph.variables);
      custom.set(name, spec);
    }
    return spec;
  }

  async function resolveOne(ref: string): Promise<ToolSpec[] | ToolRefError | Partly> {
    const parts = ref.split('.');
    const [root, second] = parts;
    if (root === 'builtins' && parts.length === 3) {
      if (parts[2] === 'all') {
        const all = [...builtins.values()].filter((s) => s.group === `builtins.${second}`);
        return all.length > 0 ? all : { ref, message: `unknown builtin namespace "builtins.${second}"` };
      }
      const spec = builtins.get(ref);
      return spec ? [spec] : { ref, message: `unknown builtin tool "${ref}"` };
    }
    if (root === 'tools' && parts.length === 2 && second) {
      const spec = customSpec(second);
      return spec ? [spec] : { ref, message: `unknown custom tool "${ref}"` };
    }
    if (root === 'mcp' && parts.length >= 3 && second) {
      const server = servers.get(second);
      if (!server) return { ref, message: `unknown MCP server "${second}" in "${ref}"` };
      return resolveMcp(ref, server, parts.slice(2).join('.'));
    }
    if (root === 'plugins' && parts.length === 3 && second) {
      const plugin = graph.plugins?.find((p) => p.name === second);
      if (!plugin || !deps.plugins) return { ref, message: `unknown plugin "${second}" in "${ref}"` };
      let specs: ToolSpec[];
      try {
        specs = await deps.plugins.listTools(plugin);
      } catch (err) {
        return { ref, message: err instanceof Error ? err.message : String(err) };
      }
      if (parts[2] === 'all') return specs;
      const spec = specs.find((s) => s.ref === ref);
      if (spec) return [spec];
      return { ref, message: `plugin "${second}" has no tool "${parts[2]}" (it has: ${specs.map((s) => s.ref.slice(`plugins.${second}.`.length)).join(', ') || 'no tools'})` };
    }
    return { ref, message: `"${ref}" is not a tool reference (expected builtins.<ns>.<tool>, tools.<name>, mcp.<server>.<tool> or plugins.<plugin>.<tool>)` };
  }

  async function resolveMcp(ref: string, server: McpServer, tool: string): Promise<ToolSpec[] | ToolRefError | Partly> {
    if (tool === RESOURCES_TOOL && deps.mcp.resourcesTool) return [await deps.mcp.resourcesTool(server)];
    let specs: ToolSpec[];
    try {
      specs = await deps.mcp.listTools(server);
    } catch (err) {
      return { ref, message: err instanceof Error ? err.message : String(err) };
    }
    const taskOnly = (await deps.mcp.taskOnlyTools?.(server).catch(() => [])) ?? [];
    const leftOut = (name: string): ToolRefError => ({
      ref: `mcp.${server.name}.${name}`,
      message: 'it only runs as an MCP task (execution.taskSupport = "required"), which Squadron does not support',
    });
    if (tool === 'all') return taskOnly.length > 0 ? { specs, errors: taskOnly.map(leftOut) } : specs;
    const spec = specs.find((s) => s.ref === ref);
    if (spec) return [spec];
    if (taskOnly.includes(tool)) return leftOut(tool);
    const names = specs.map((s) => s.ref.slice(`mcp.${server.name}.`.length));
    return { ref, message: `MCP server "${server.name}" has no tool "${tool}" (it has: ${names.join(', ') || 'no tools'})` };
  }

  return {
    async resolve(refs) {
      // Look up every ref concurrently (servers start in parallel), then assemble in the given order.
      const outcomes = await Promise.all(refs.map(resolveOne));
      const tools: ToolSpec[] = [];
      const errors: ToolRefError[] = [];
      const seen = new Set<string>();
      for (const outcome of outcomes) {
        if ('ref' in outcome) {
          errors.push(outcome);
          continue;
        }
        const specs = Array.isArray(outcome) ? outcome : outcome.specs;
        if (!Array.isArray(outcome)) errors.push(...outcome.errors);
        for (const spec of specs) {
          if (seen.has(spec.ref)) continue;
          seen.add(spec.ref);
          tools.push(spec);
        }
      }
      return Object.assign(tools, { errors });
    },
  };
}

/** The graph's secrets (computed ones included) as a one-way mask, or nothing when it has none. */
function secretsMask(graph: MissionGraph): { mask?: (text: string) => string } {
  const secrets = secretValues(graph.variables, graph.models, graph.derivedSecrets).filter((s) => s.value.length >= MIN_SECRET_LENGTH);
  return secrets.length === 0 ? {} : { mask: createSecretRedactor(secrets).mask };
}
