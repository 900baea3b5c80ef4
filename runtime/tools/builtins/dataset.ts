// builtins.dataset.set | sample | count: the Go original's dataset tools. They reach the run's
// datasets through the call's context (runtime/iteration/filledDatasets.ts); outside a run (plan, a
// custom tool's test) there is none, which is an error result.

import type { Value } from '../../../config/hcl/value.js';
import type { ToolContext, ToolResult } from '../types.js';
import { textResult } from '../types.js';

const NO_RUN = 'the dataset tools work inside a run of a mission only';

export async function setDatasetTool(input: { name: string; items: Value[]; append?: boolean }, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.datasets) return textResult(NO_RUN, true);
  const r = await ctx.datasets.set(input.name, input.items, input.append === true);
  return textResult(r.message, !r.ok);
}

export async function sampleDatasetTool(input: { name: string; count?: number }, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.datasets) return textResult(NO_RUN, true);
  const items = await ctx.datasets.items(input.name);
  if (typeof items === 'string') return textResult(items, true);
  return textResult(JSON.stringify(items.slice(0, input.count ?? 5), null, 2));
}

export async function countDatasetTool(input: { name: string }, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.datasets) return textResult(NO_RUN, true);
  const items = await ctx.datasets.items(input.name);
  if (typeof items === 'string') return textResult(items, true);
  return textResult(`dataset "${input.name}" holds ${items.length} items`);
}
