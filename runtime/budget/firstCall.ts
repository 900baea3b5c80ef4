// What the budget gate reserves for a session's first model call, computed as the run computes it
// (callUpperBound of the request plan builds), so `plan` can show it and warn when a budget is
// smaller: such a run stops before that call is made.

import type { MissionGraph, ModelRef, Reasoning } from '../../config/graph.js';
import { catalogModel, catalogModelByApiId } from '../../config/modelCatalog.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../config/stages/budget.js';
import type { ToolDefinition } from '../providers/types.js';
import { callUpperBound, type Spend } from './estimate.js';

export function firstCallBound(graph: MissionGraph, ref: ModelRef, reasoning: Reasoning | undefined, system: string, tools: readonly ToolDefinition[], firstMessage: string): Spend {
  const block = graph.models.find((m) => m.name === ref.block);
  const catalog = catalogModel(ref.provider, ref.key) ?? catalogModelByApiId(ref.provider, ref.apiModel);
  const pricing = block?.pricing[ref.key] ?? catalog?.pricing;
  const request = {
    model: ref.apiModel,
    system,
    messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: firstMessage }] }],
    tools: [...tools],
    maxOutputTokens: block?.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...(reasoning && catalog?.reasoning ? { reasoning } : {}),
    ...(catalog?.thinking ? { reasoningForm: catalog.thinking } : {}),
    trace: { task: '', agent: '', turn: 0 },
  };
  return callUpperBound(request, pricing ? { pricing } : {});
}
