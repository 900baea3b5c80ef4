// validate's plugin pass (Go asks each plugin at load time; here, as for MCP servers, validate does):
// start each referenced plugin, list its tools, and report `plugins.<p>.<tool>` references to tools it
// does not offer (PLG003) at the reference, or a plugin that cannot start (PLG004) at its block.
// `--offline` leaves plugins unstarted and says so in one warning per plugin.

import { diagnosticAt, rangeAtLocation, type Diagnostic } from './hcl/diagnostic.js';
import type { MissionGraph, PluginBlock } from './graph.js';
import { suggestionHint } from './suggest.js';

/** Lists a plugin's tool names, or says why it could not. */
export type PluginToolLister = (plugin: PluginBlock) => Promise<string[] | { error: string }>;

export async function checkPluginReferences(graph: MissionGraph, lister: PluginToolLister | 'offline'): Promise<Diagnostic[]> {
  const refs = graph.pluginToolRefs ?? [];
  const referenced = (graph.plugins ?? []).filter((p) => refs.some((r) => r.plugin === p.name));
  const diags: Diagnostic[] = [];
  const at = (p: PluginBlock) => rangeAtLocation(p.location, 'plugin'.length);
  if (lister === 'offline') {
    for (const p of referenced) diags.push(diagnosticAt(at(p), 'warning', 'PLG004', `plugin "${p.name}" was not started (offline), so its tool references are unchecked`, 'validate without --offline to check them'));
    return diags;
  }
  const listed = await Promise.all(referenced.map(async (p) => [p, await lister(p).catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))] as const));
  for (const [plugin, result] of listed) {
    if (!Array.isArray(result)) {
      diags.push(diagnosticAt(at(plugin), 'error', 'PLG004', result.error, 'check the plugin\'s source and version: validate starts it to list its tools'));
      continue;
    }
    for (const ref of refs) {
      if (ref.plugin !== plugin.name || ref.tool === 'all' || result.includes(ref.tool)) continue;
      const hint = suggestionHint(ref.tool, result, (c) => `plugins.${plugin.name}.${c}`) ?? `it offers: ${result.join(', ') || 'no tools'}`;
      diags.push(diagnosticAt(ref.range, 'error', 'PLG003', `plugin "${plugin.name}" has no tool "${ref.tool}"`, hint));
    }
  }
  return diags;
}
