// Before a run is created: every plugin the config references must start (Go fails the load when one
// does not). Each is started, asked for its tools and stopped; the run starts its own on first use.

import type { MissionGraph } from '../../config/graph.js';
import { RunRefused } from './runRefused.js';

export async function checkPluginsStart(graph: MissionGraph): Promise<void> {
  const refs = graph.pluginToolRefs ?? [];
  const used = (graph.plugins ?? []).filter((p) => refs.some((r) => r.plugin === p.name));
  if (used.length === 0) return;
  const { createPluginHost } = await import('../tools/plugins/pluginHost.js');
  const host = createPluginHost(graph.projectRoot);
  try {
    const failures = await Promise.all(used.map((p) => host.describe(p).then(() => undefined, (err: unknown) => (err instanceof Error ? err.message : String(err)))));
    const problems = failures.filter((f): f is string => f !== undefined);
    if (problems.length > 0) throw new RunRefused(`${problems.join('\n')}\nnothing ran; \`squadron validate\` checks plugins the same way`, 'usage');
  } finally {
    host.closeAll();
  }
}
