// A sequential iterated task: one commander walks the items with dataset_next, as in the Go original.
// The cursor is the commander's own conversation (how many dataset_next calls handed out an item), so
// a resumed commander continues where it stopped; each item is a row in the store, completed (with
// the output submitted for it) when the commander moves on. With an output schema, dataset_next
// refuses to move on before the current item's output was submitted.

import type { Mission, TaskSpec } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import { renderObjective } from '../../config/objective.js';
import { commanderAgents } from '../agents/definitions.js';
import { runCommander, type DatasetWalk, type TaskOutcome, type UpstreamResult } from '../agents/commander.js';
import type { CommanderState } from '../kernel/commanderState.js';
import { normalizeOutput } from '../agents/outputValidation.js';
import type { SessionTool } from '../tools/toolbox.js';
import type { ToolDefinition } from '../providers/types.js';
import type { RunContext } from '../agents/runContext.js';
import type { IterationDeps } from './parallel.js';

export async function runSequentialItems(
  ctx: RunContext,
  task: TaskSpec,
  items: readonly Value[],
  upstream: readonly UpstreamResult[],
  _deps: IterationDeps,
): Promise<TaskOutcome | 'interrupted'> {
  const { store, runId } = ctx;
  const total = items.length;
  await store.items.ensure(runId, task.name, total);
  const rendered = renderObjective(task, ctx.graph.variables, ctx.inputs);
  if (rendered.text === undefined) throw new Error(rendered.diagnostics.map((d) => d.message).join('; '));
  const agents = await commanderAgents(ctx, task, rendered.text);
  const dataset = datasetWalk(ctx.mission, task, total);
  const outcome = await runCommander(ctx, task, agents, upstream, rendered.text, { dataset, tools: (state) => [datasetNextTool(ctx, task, items, state)] });
  if (outcome.status === 'failed') return outcome;
  const state = outcome.state!;
  // The last item taken is done once the commander completes the task.
  if (state.itemsTaken > 0 && state.itemsTaken <= total) await completeItem(ctx, task, state.itemsTaken - 1, total, state);
  const rows = await store.items.list(runId, task.name);
  const completed = rows.filter((r) => r.status === 'completed').length;
  if (total > 0 && completed === 0) return { status: 'failed', error: `the commander completed the task without taking any item with dataset_next (${total} items)` };
  const counts = `${completed} of ${total} item${total === 1 ? '' : 's'} processed`;
  return { status: 'completed', summary: `${outcome.summary}\n(${counts}; read their outputs with query_task_output)`, ...(outcome.route !== undefined ? { route: outcome.route } : {}) };
}

async function completeItem(ctx: RunContext, task: TaskSpec, index: number, total: number, state: CommanderState): Promise<void> {
  const row = await ctx.store.items.get(ctx.runId, task.name, index);
  if (row === undefined || row.status === 'completed') return;
  const done: { summary: string; output?: unknown } = { summary: `item ${index} processed` };
  if (task.output !== undefined && state.itemOutputSubmitted) done.output = normalizeOutput(task.output, state.output);
  await ctx.store.items.complete(ctx.runId, task.name, index, done);
  // The walk takes the items in order and completes each before the next: items 0…index are done, and
  // none fails (the count is not read back from every row, which made a long walk quadratic).
  ctx.bus.emit({ type: 'item.finished', task: task.name, index, status: 'completed', completed: index + 1, failed: 0, total });
}

/** The dataset as the walking commander's prompt describes it (plan shows the same). */
export function datasetWalk(mission: Mission, task: TaskSpec, total: number | string): DatasetWalk {
  const name = task.iterator!.dataset;
  const dataset = mission.datasets.find((d) => d.name === name);
  const walk: DatasetWalk = { name, total };
  if (dataset?.description) walk.description = dataset.description;
  if (dataset?.schema && dataset.schema.length > 0) {
    walk.fields = dataset.schema.map((f) => `${f.name} (${f.type}${f.required ? ', required' : ''})${f.description ? `: ${f.description}` : ''}`);
  }
  return walk;
}

/** dataset_next as the model sees it (plan shows the same). */
export function datasetNextDefinition(dataset: string, total: number | string): ToolDefinition {
  return {
    name: 'dataset_next',
    description: `Take the next item of dataset "${dataset}" (${total} items), after finishing the current one.`,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  };
}

function datasetNextTool(ctx: RunContext, task: TaskSpec, items: readonly Value[], state: CommanderState): SessionTool {
  const total = items.length;
  return {
    ref: 'dataset_next',
    definition: datasetNextDefinition(task.iterator!.dataset, total),
    // Every write it makes is keyed by the item index its conversation implies: running it again is safe.
    onInterrupted: 'rerun',
    async execute() {
      const next = state.itemsTaken;
      if (next > 0 && next <= total) {
        if (task.output !== undefined && !state.itemOutputSubmitted) {
          return { content: [{ type: 'text', text: `Call submit_output with the output of item ${next - 1} before taking the next item.` }], isError: true };
        }
        await completeItem(ctx, task, next - 1, total, state);
      }
      if (next >= total) return { content: [{ type: 'text', text: JSON.stringify({ status: 'exhausted', completed: Math.min(next, total) }) }], isError: false };
      await ctx.store.items.markRunning(ctx.runId, task.name, next);
      ctx.bus.emit({ type: 'item.started', task: task.name, index: next, attempt: 1, total });
      return { content: [{ type: 'text', text: JSON.stringify({ status: 'ok', index: next, total, item: items[next] }) }], isError: false };
    },
  };
}
