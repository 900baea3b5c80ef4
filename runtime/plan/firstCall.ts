// What the budget gate reserves for a session's first model call, computed as the run computes it
// (callUpperBound of the request plan builds), so `plan` can show it and warn when a budget is
// smaller: such a run stops before that call is made.

import type { MissionGraph, ModelRef, Reasoning } from '../../config/graph.js';
import { sessionModelOf } from '../model/models.js';
import type { ToolDefinition } from '../providers/types.js';
import { callUpperBound, type Spend } from '../budget/estimate.js';

export function firstCallBound(graph: MissionGraph, ref: ModelRef, reasoning: Reasoning | undefined, system: string, tools: readonly ToolDefinition[], firstMessage: string): Spend {
  const block = graph.models.find((m) => m.name === ref.block);
  if (block === undefined) return { tokens: 0, dollars: 0 };
  const model = sessionModelOf(block, ref, reasoning);
  const request = {
    model: model.apiModel,
    system,
    messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: firstMessage }] }],
    tools: [...tools],
    maxOutputTokens: model.maxOutputTokens,
    ...(model.reasoning ? { reasoning: model.reasoning } : {}),
    ...(model.reasoningForm ? { reasoningForm: model.reasoningForm } : {}),
    trace: { task: '', agent: '', turn: 0 },
  };
  return callUpperBound(request, model.pricing ? { pricing: model.pricing } : {});
}
