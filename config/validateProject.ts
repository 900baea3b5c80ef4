// Load plus the optional MCP pass, as `squadron validate` does it: load the config, then (only when
// it loaded and a lister is given) ask each referenced MCP server for its tools, or read their cached
// lists, and report unknown ones at their references. The graph is returned only when neither pass
// found an error (findings from cached lists are warnings, so they never fail a valid config).

import { hasErrors } from './hcl/diagnostic.js';
import { sortDiagnostics } from './diagnostics.js';
import { loadConfig, type LoadOptions, type LoadResult } from './load.js';
import { checkMcpReferences, type McpCheckOptions, type McpToolLister } from './mcpCheck.js';
import { checkPluginReferences, type PluginToolLister } from './pluginCheck.js';

export interface ValidateOptions extends LoadOptions {
  /** Lists an MCP server's tools; without it the MCP pass is skipped. */
  mcpTools?: McpToolLister;
  /** Where the lister's lists come from (`cache` for validate --offline). */
  mcpSource?: McpCheckOptions['source'];
  /** Starts a plugin and lists its tools (`offline`: plugins are not started); without it the plugin pass is skipped. */
  pluginTools?: PluginToolLister | 'offline';
}

export async function validateProject(path: string, opts: ValidateOptions = {}): Promise<LoadResult> {
  const loaded = loadConfig(path, opts);
  if (loaded.graph === undefined || (opts.mcpTools === undefined && opts.pluginTools === undefined)) return loaded;
  const mcp = opts.mcpTools === undefined ? [] : await checkMcpReferences(loaded.graph, opts.mcpTools, opts.mcpSource === undefined ? {} : { source: opts.mcpSource });
  if (opts.pluginTools !== undefined && (loaded.graph.plugins?.length ?? 0) > 0) mcp.push(...(await checkPluginReferences(loaded.graph, opts.pluginTools)));
  if (mcp.length === 0) return loaded;
  const diagnostics = sortDiagnostics([...loaded.diagnostics, ...mcp]);
  const result: LoadResult = hasErrors(diagnostics) ? { diagnostics } : { graph: loaded.graph, diagnostics };
  if (loaded.sources !== undefined) result.sources = loaded.sources;
  if (loaded.loaded !== undefined) result.loaded = loaded.loaded;
  if (loaded.secrets !== undefined) result.secrets = loaded.secrets;
  return result;
}
