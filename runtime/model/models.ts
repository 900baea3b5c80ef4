// Turns a ModelRef into what a session needs: a client (one per model block per run, shared, handed
// out gated: see modelCall.ts), the wire id, pricing and output limit. `--replay FILE` swaps every block's client for the cassette
// player; `--record FILE` wraps every client in the recorder.

import type { Mission, MissionGraph, ModelBlock, ModelRef, Reasoning } from '../../config/graph.js';
import { catalogModel, catalogModelByApiId, contextWindowOf } from '../../config/modelCatalog.js';
import type { ModelClient } from '../providers/types.js';
import type { SessionModel } from '../kernel/session.js';
import { gatedClient, UNGATED, type CallGate, type GatedClient } from './modelCall.js';

export { DEFAULT_MAX_OUTPUT_TOKENS } from '../../config/stages/budget.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../config/stages/budget.js';

export type ClientFactory = (block: ModelBlock) => ModelClient;

export class ModelResolver {
  private readonly clients = new Map<string, ModelClient>();

  constructor(
    private readonly graph: MissionGraph,
    private readonly createClient: ClientFactory,
    /** What every call of a client handed out goes through (the run's budgets and event barrier). */
    private readonly gate: CallGate = UNGATED,
  ) {}

  block(ref: ModelRef): ModelBlock {
    const block = this.graph.models.find((m) => m.name === ref.block);
    if (!block) throw new Error(`model block "${ref.block}" is not in the loaded config`);
    return block;
  }

  /** The client of `ref`'s block, gated: every call reserves against the budgets and passes the barrier first. */
  client(ref: ModelRef): GatedClient {
    return gatedClient(this.raw(ref), this.sessionModel(ref, undefined), this.gate);
  }

  private raw(ref: ModelRef): ModelClient {
    let client = this.clients.get(ref.block);
    if (!client) {
      client = this.createClient(this.block(ref));
      this.clients.set(ref.block, client);
    }
    return client;
  }

  /** Creates the clients of these models now (each loads its provider's SDK on its first request). */
  warmUp(refs: readonly ModelRef[]): void {
    for (const ref of refs) this.raw(ref);
  }

  sessionModel(ref: ModelRef, reasoning: Reasoning | undefined): SessionModel {
    return sessionModelOf(this.block(ref), ref, reasoning);
  }
}

/** What a session on `ref` (of `block`) sends and is priced at: the rule the run and `plan` share. */
export function sessionModelOf(block: ModelBlock, ref: ModelRef, reasoning: Reasoning | undefined): SessionModel {
  const catalog = catalogModel(ref.provider, ref.key) ?? catalogModelByApiId(ref.provider, ref.apiModel);
  const window = contextWindowOf(block, ref);
  const model: SessionModel = {
    apiModel: ref.apiModel,
    label: `${ref.block}.${ref.key}`,
    maxOutputTokens: block.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    contextWindow: window.window,
    contextWindowVia: window.via,
  };
  const pricing = block.pricing[ref.key] ?? catalog?.pricing;
  if (pricing) model.pricing = pricing;
  // Reasoning is only requested from models that accept it; replay passes it through untouched.
  if (reasoning && (catalog?.reasoning ?? ref.provider === 'replay')) model.reasoning = reasoning;
  if (catalog?.thinking) model.reasoningForm = catalog.thinking;
  return model;
}

/**
 * Whether a run of this mission calls no model at all — `--replay`, or every model block its
 * commander, workers and agents use replays a cassette — so its cost is $0 by construction.
 */
export function replaysEveryModel(graph: MissionGraph, mission: Mission, replayFlag: string | undefined): boolean {
  if (replayFlag !== undefined) return true;
  const agentNames = new Set(mission.tasks.flatMap((t) => t.agents));
  const agents = [...mission.localAgents, ...graph.agents].filter((a) => agentNames.has(a.name));
  const refs = [mission.commander.model, ...mission.tasks.flatMap((t) => (t.worker ? [t.worker.model] : [])), ...agents.map((a) => a.model)];
  return refs.every((ref) => graph.models.find((m) => m.name === ref.block)?.provider === 'replay');
}
