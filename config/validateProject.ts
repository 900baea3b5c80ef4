// Load plus the optional MCP pass, as `squadron validate` does it: load the config, then (unless
// offline, and only when it loaded) ask each referenced MCP server for its tools and report unknown
// ones at their references. The graph is returned only when neither pass found an error.

import { hasErrors } from './hcl/diagnostic.js';
import { sortDiagnostics } from './diagnostics.js';
import { loadConfig, type LoadOptions, type LoadResult } from './load.js';
import { checkMcpReferences, type McpToolLister } from './mcpCheck.js';

export interface ValidateOptions extends LoadOptions {
  /** Lists an MCP server's tools; without it the MCP pass is skipped. */
  mcpTools?: McpToolLister;
  /** Skip the MCP pass even when a lister is given. */
  offline?: boolean;
}

export async function validateProject(path: string, opts: ValidateOptions = {}): Promise<LoadResult> {
  const loaded = loadConfig(path, opts);
  if (loaded.graph === undefined || opts.mcpTools === undefined || opts.offline === true) return loaded;
  const mcp = await checkMcpReferences(loaded.graph, opts.mcpTools);
  if (mcp.length === 0) return loaded;
  const diagnostics = sortDiagnostics([...loaded.diagnostics, ...mcp]);
  return hasErrors(diagnostics) ? { diagnostics } : { graph: loaded.graph, diagnostics };
}
