// What a reasoning effort becomes on the wire for one model, in words, for `plan`: the same rule
// the session model applies (runtime/model/models.ts) and the form each adapter sends it in.

import type { MissionGraph, ModelRef, Reasoning } from '../../config/graph.js';
import { catalogModel, catalogModelByApiId } from '../../config/modelCatalog.js';
import { THINKING_BUDGETS } from '../providers/anthropicRequest.js';

export function reasoningOnTheWire(graph: MissionGraph, ref: ModelRef, reasoning: Reasoning): string {
  if (ref.provider === 'replay') return `replayed (the cassette holds what ${reasoning} produced)`;
  const catalog = catalogModel(ref.provider, ref.key) ?? catalogModelByApiId(ref.provider, ref.apiModel);
  if (catalog?.reasoning !== true) return 'not sent (the model is not known to take a reasoning effort)';
  if (ref.provider === 'anthropic') {
    return catalog.thinking === 'adaptive' ? `adaptive thinking, effort ${reasoning}` : `extended thinking, budget ${THINKING_BUDGETS[reasoning].toLocaleString('en-US')} tokens`;
  }
  const api = graph.models.find((m) => m.name === ref.block)?.api;
  return api === 'responses' ? `reasoning.effort ${reasoning}, reasoning items sent back` : `reasoning_effort ${reasoning}`;
}
