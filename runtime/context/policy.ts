// The context policy of one session: its model's context window, when its conversation is compacted
// (`compaction { token_limit, turn_retention, summarize }`) and when it is pruned (`pruning { prune_on,
// prune_to }`), with where each figure comes from. `plan` shows it; the session applies it.

import type { ContextSettings, MissionGraph, ModelRef } from '../../config/graph.js';
import { contextWindowOf } from '../../config/modelCatalog.js';

export type PolicyVia = 'agent' | 'agent_defaults' | 'commander' | 'default';

export interface CompactionPolicy {
  /** Compact once a request's input tokens (cached ones included) exceed this. */
  tokenLimit: number;
  /** Model turns kept verbatim. */
  turnRetention: number;
  /** Ask the model for a summary of what is compacted (one extra call). */
  summarize: boolean;
  via: PolicyVia;
}

export interface PruningPolicy {
  /** Prune once the request holds this many model turns… */
  pruneOn: number;
  /** …down to this many. */
  pruneTo: number;
  via: PolicyVia;
}

export interface ContextPolicy {
  /** The model's context window in tokens, and where it comes from. */
  window: number;
  windowVia: 'catalog' | 'model block' | 'default';
  /** The reply's room in the window (the model's output limit, at most half the window). */
  replyRoom: number;
  compaction: CompactionPolicy;
  pruning?: PruningPolicy;
}

/** Turns kept verbatim when the block sets no turn_retention. */
export const DEFAULT_TURN_RETENTION = 4;
/** Share of the window (after the reply's room) a request may fill before it is compacted by default. */
const DEFAULT_LIMIT_SHARE = 0.8;

/** The token limit used when a block sets no compaction: room for the reply, then 80% of what is left. */
export function defaultTokenLimit(window: number, maxOutputTokens: number): number {
  return Math.max(1_000, Math.floor((window - replyRoomOf(window, maxOutputTokens)) * DEFAULT_LIMIT_SHARE));
}

function replyRoomOf(window: number, maxOutputTokens: number): number {
  return Math.floor(Math.min(maxOutputTokens, window / 2));
}

/** Input tokens a request may hold at most: the window less the reply's room. */
export function requestRoom(policy: Pick<ContextPolicy, 'window' | 'replyRoom'>): number {
  return policy.window - policy.replyRoom;
}

/** The blocks a session's own block (or agent_defaults) sets, and which block that is. */
export interface PolicySettings {
  settings?: ContextSettings | undefined;
  via: Exclude<PolicyVia, 'default'>;
}

/** What the policy needs of the session's model. */
export interface PolicyModel {
  contextWindow: number;
  contextWindowVia: ContextPolicy['windowVia'];
  maxOutputTokens: number;
}

/** The model facts of a ref as a run resolves them (for plan, which opens no client). */
export function policyModel(graph: MissionGraph, ref: ModelRef, defaultMaxOutputTokens: number): PolicyModel {
  const block = graph.models.find((m) => m.name === ref.block);
  const { window, via } = contextWindowOf(block, ref);
  return { contextWindow: window, contextWindowVia: via, maxOutputTokens: block?.maxOutputTokens ?? defaultMaxOutputTokens };
}

export function contextPolicy(own: PolicySettings, model: PolicyModel): ContextPolicy {
  const p = { compaction: own.settings?.compaction, pruning: own.settings?.pruning, via: own.via, window: model.contextWindow, windowVia: model.contextWindowVia, maxOutputTokens: model.maxOutputTokens };
  const ownCompaction = p.compaction;
  const compaction: CompactionPolicy = {
    tokenLimit: ownCompaction?.tokenLimit ?? defaultTokenLimit(p.window, p.maxOutputTokens),
    turnRetention: ownCompaction?.turnRetention ?? DEFAULT_TURN_RETENTION,
    summarize: ownCompaction?.summarize ?? false,
    via: ownCompaction === undefined ? 'default' : p.via,
  };
  const policy: ContextPolicy = { window: p.window, windowVia: p.windowVia, replyRoom: replyRoomOf(p.window, p.maxOutputTokens), compaction };
  if (p.pruning !== undefined) policy.pruning = { pruneOn: p.pruning.pruneOn, pruneTo: p.pruning.pruneTo, via: p.via };
  return policy;
}
