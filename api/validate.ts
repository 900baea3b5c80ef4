// Checking a config as `squadron validate` does: load it (every diagnostic with its position), ask
// the MCP servers it references for their tools (or, offline, read the lists the last online check
// cached), start its plugins to list theirs, and check its test files (*.sqtest.hcl) against its
// missions. Also the summaries of what was loaded, which validate prints on success. The runtime is
// loaded only to reach an MCP server or a plugin, never for an offline check.

import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { sortDiagnostics } from '../config/diagnostics.js';
import type { McpServer, Mission, PluginBlock } from '../config/graph.js';
import type { LoadResult } from '../config/load.js';
import type { McpListWant, McpToolLister, McpToolListing } from '../config/mcpCheck.js';
import type { PluginToolLister } from '../config/pluginCheck.js';
import { mcpToolCacheDir } from '../config/projectLayout.js';
import { testFileProblems, type MissionShape } from '../config/testCheck.js';
import { validateProject } from '../config/validateProject.js';

export { summarize, summarizeItem, summarizeMission, type MissionSummary, type WholeServers } from '../config/summary.js';
export type { McpToolLister, McpToolListing };

export interface CheckRequest {
  /** `name → value`, as `--var`. */
  vars?: Readonly<Record<string, string>>;
  env?: NodeJS.ProcessEnv;
  /** Contact no MCP server and start no plugin: cached tool lists only, the rest a warning. */
  offline?: boolean;
  /** How MCP servers are asked for their tools (tests inject a fake; default: start or connect them, through the cache). */
  mcpTools?: McpToolLister;
  /** Each mission as it loads (the loader may then let it go, so a large config is never held whole). */
  eachMission?: (mission: Mission) => void;
}

/**
 * The config at `path` checked; a value, never a throw, for a config mistake. Variables without a
 * value are left unchecked (a CI check need not hold the secrets).
 */
export async function checkConfig(path: string, req: CheckRequest = {}): Promise<LoadResult> {
  const full = resolve(path);
  const offline = req.offline === true;
  // Online, every referenced server is asked (the MCP client is loaded only then); offline, the
  // lists cached by the last online check are read and whatever they cannot confirm is a warning.
  // An injected lister (tests) stands for the servers, so offline it is not used at all.
  const lister = req.mcpTools !== undefined ? (offline ? undefined : req.mcpTools) : cachingMcpLister(full, offline);
  // The test files are checked against each mission's name, inputs and tasks.
  const shapes: MissionShape[] = [];
  const each = req.eachMission;
  const loaded = await validateProject(full, {
    ...(each ? { eachMission: (m: Mission) => { shapes.push(missionShape(m)); each(m); } } : {}),
    vars: req.vars ?? {},
    env: req.env ?? process.env,
    unsetVariables: 'unknown',
    ...(lister === undefined ? {} : { mcpTools: lister, mcpSource: offline ? 'cache' : 'server' }),
    pluginTools: offline ? 'offline' : startingPluginLister(full),
  });
  return withTestProblems(loaded, full, each ? shapes : (loaded.graph?.missions ?? []).map(missionShape));
}

function missionShape(m: Mission): MissionShape {
  return { name: m.name, inputs: m.inputs.map((i) => ({ name: i.name })), tasks: m.tasks.map((t) => ({ name: t.name })) };
}

/** The config's result with its test files' problems added (a test error makes it invalid). */
function withTestProblems(result: LoadResult, path: string, missions: readonly MissionShape[]): LoadResult {
  if (result.graph === undefined) return result;
  const tests = testFileProblems(path, missions);
  if (tests.diagnostics.length === 0) return result;
  const diagnostics = sortDiagnostics([...result.diagnostics, ...tests.diagnostics]);
  const sources = new Map([...(result.sources ?? []), ...tests.sources]);
  const { graph: _graph, ...rest } = result;
  return tests.diagnostics.some((d) => d.severity === 'error') ? { ...rest, diagnostics, sources } : { ...result, diagnostics, sources };
}

/** Starts each referenced plugin (as Go does at load time), lists its tools, and stops it. */
function startingPluginLister(path: string): PluginToolLister {
  return async (plugin: PluginBlock) => {
    const root = statSync(path).isDirectory() ? path : dirname(path);
    const { createPluginHost } = await import('../runtime/tools/plugins/pluginHost.js');
    const host = createPluginHost(root);
    try {
      return (await host.describe(plugin)).map((t) => t.name);
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    } finally {
      host.closeAll();
    }
  };
}

/**
 * Lists each server's tools through the on-disk cache keyed by the server's config hash
 * (`.squadron/mcp-tools/` beside the config). Online, every server is asked (bounded by the
 * cache's 30 s connect and list timeouts) and the cache refreshed; offline, only the cache is read.
 * Each listing owns its connection and closes it, so no server outlives the check.
 */
function cachingMcpLister(path: string, offline: boolean): McpToolLister {
  let root: string | undefined;
  return async (server: McpServer, want?: McpListWant) => {
    try {
      // Asked only after the config loaded, so `path` exists; worked out once for all servers.
      root ??= statSync(path).isDirectory() ? path : dirname(path);
      const { listToolsCached } = await import('../runtime/tools/mcp/mcpToolCache.js');
      const listed = await listToolsCached(server, mcpToolCacheDir(root), offline ? { offline: true } : { refresh: true, cwd: root, prompts: want?.prompts === true, allowedHosts: want?.allowedHosts ?? [] });
      const usable = offline ? listed.fromCache : listed.fresh === true;
      if (!usable) return { error: listed.error ?? 'no tool list' };
      const listing: McpToolListing = { tools: listed.tools.filter((t) => !t.taskRequired).map((t) => t.name), taskOnly: listed.tools.filter((t) => t.taskRequired).map((t) => t.name) };
      if (listed.prompts) listing.prompts = listed.prompts;
      return listing;
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
}
