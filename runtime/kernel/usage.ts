// Token and cost accounting. Costs are computed from the model block's pricing (USD per million
// tokens); a model without pricing costs 0 and says so in the summary rather than guessing.

import type { Pricing } from '../../config/graph.js';
import type { UsageTotals } from '../../store/index.js';
import type { Usage } from '../providers/types.js';

export type { UsageTotals } from '../../store/index.js';

export function emptyTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0 };
}

export function costOf(usage: Usage, pricing: Pricing | undefined): number {
  if (!pricing) return 0;
  const perToken = (rate: number | undefined, tokens: number) => ((rate ?? 0) * tokens) / 1_000_000;
  return (
    perToken(pricing.input, usage.inputTokens) +
    perToken(pricing.output, usage.outputTokens) +
    perToken(pricing.cacheRead ?? pricing.input * 0.1, usage.cacheReadTokens) +
    perToken(pricing.cacheWrite ?? pricing.input * 1.25, usage.cacheWriteTokens)
  );
}

export function totalTokens(t: Pick<UsageTotals, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>): number {
  return t.inputTokens + t.outputTokens + t.cacheReadTokens + t.cacheWriteTokens;
}
