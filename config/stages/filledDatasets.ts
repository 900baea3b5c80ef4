// A dataset filled while the run goes (no items, no bind_to: the Go original's datasets) needs a task
// or agent of its mission holding builtins.dataset.set; otherwise it stays empty and the tasks that
// iterate over it have nothing to do. Go gave every agent of a mission the dataset tools; here they are
// declared like every other tool, so a config that relied on that hears it at validate time.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { AgentSpec, DatasetSpec, TaskSpec } from '../graph.js';
import type { LoadContext } from '../scope.js';

const FILLS = new Set(['builtins.dataset.set', 'builtins.dataset.all']);

export function warnUnfilledDatasets(
  datasets: readonly DatasetSpec[],
  tasks: readonly TaskSpec[],
  agentOf: (name: string) => AgentSpec | undefined,
  missionAgents: readonly string[] | undefined,
  blocks: readonly Block[],
  ctx: LoadContext,
): void {
  const filled = datasets.filter((d) => d.source.kind === 'filled');
  if (filled.length === 0) return;
  const agentNames = new Set([...(missionAgents ?? []), ...tasks.flatMap((t) => t.agents)]);
  const refs = [...tasks.flatMap((t) => t.worker?.tools ?? []), ...[...agentNames].flatMap((n) => agentOf(n)?.tools ?? [])].map((t) => t.ref);
  if (refs.some((r) => FILLS.has(r))) return;
  for (const dataset of filled) {
    const block = blocks.find((b) => b.labels[0] === dataset.name);
    if (block === undefined) continue;
    ctx.diags.push(
      diagnosticAt(
        block.labelRanges[0]!,
        'warning',
        'ITR001',
        `dataset "${dataset.name}" has no items and is filled at run time, but no task or agent of the mission holds builtins.dataset.set`,
        'add builtins.dataset.set to the tools of the task or agent that fills it (Go gave every agent the dataset tools), or write items = [...] / bind_to = inputs.<name>',
      ),
    );
  }
}
