// The built-in model keys of each provider: the key written in HCL (`models.<block>.<key>`), the id
// sent on the wire, whether the model accepts a reasoning effort, and default pricing in USD per
// million tokens (a `pricing "<key>"` block in the model block overrides it).

import type { Pricing, ProviderName } from './graph.js';

export interface CatalogModel {
  key: string;
  apiModel: string;
  reasoning: boolean;
  pricing: Pricing;
}

function m(key: string, apiModel: string, reasoning: boolean, input: number, output: number, cacheRead: number, cacheWrite?: number): CatalogModel {
  const pricing: Pricing = { input, output, cacheRead };
  if (cacheWrite !== undefined) pricing.cacheWrite = cacheWrite;
  return { key, apiModel, reasoning, pricing };
}

const ANTHROPIC: readonly CatalogModel[] = [
  m('claude_opus_4_5', 'claude-opus-4-5-20251101', true, 5, 25, 0.5, 6.25),
  m('claude_sonnet_4_5', 'claude-sonnet-4-5-20250929', true, 3, 15, 0.3, 3.75),
  m('claude_haiku_4_5', 'claude-haiku-4-5-20251001', true, 1, 5, 0.1, 1.25),
  m('claude_opus_4_1', 'claude-opus-4-1-20250805', true, 15, 75, 1.5, 18.75),
  m('claude_sonnet_4', 'claude-sonnet-4-20250514', true, 3, 15, 0.3, 3.75),
  m('claude_opus_4', 'claude-opus-4-20250514', true, 15, 75, 1.5, 18.75),
  m('claude_3_7_sonnet', 'claude-3-7-sonnet-20250219', true, 3, 15, 0.3, 3.75),
  m('claude_3_5_haiku', 'claude-3-5-haiku-20241022', false, 0.8, 4, 0.08, 1),
];

const OPENAI: readonly CatalogModel[] = [
  m('gpt_5', 'gpt-5', true, 1.25, 10, 0.125),
  m('gpt_5_mini', 'gpt-5-mini', true, 0.25, 2, 0.025),
  m('gpt_5_nano', 'gpt-5-nano', true, 0.05, 0.4, 0.005),
  m('gpt_4_1', 'gpt-4.1', false, 2, 8, 0.5),
  m('gpt_4_1_mini', 'gpt-4.1-mini', false, 0.4, 1.6, 0.1),
  m('gpt_4_1_nano', 'gpt-4.1-nano', false, 0.1, 0.4, 0.025),
  m('gpt_4o', 'gpt-4o', false, 2.5, 10, 1.25),
  m('gpt_4o_mini', 'gpt-4o-mini', false, 0.15, 0.6, 0.075),
  m('o3', 'o3', true, 2, 8, 0.5),
  m('o4_mini', 'o4-mini', true, 1.1, 4.4, 0.275),
];

/** The keys a provider offers built in. `replay` replays recorded traffic of any provider. */
export function catalogFor(provider: ProviderName): readonly CatalogModel[] {
  switch (provider) {
    case 'anthropic':
      return ANTHROPIC;
    case 'openai':
      return OPENAI;
    case 'replay':
      return [...ANTHROPIC, ...OPENAI];
  }
}

export function catalogModel(provider: ProviderName, key: string): CatalogModel | undefined {
  return catalogFor(provider).find((c) => c.key === key);
}

/** The catalog entry whose wire id is `apiModel`, so an alias to a known id inherits its facts. */
export function catalogModelByApiId(provider: ProviderName, apiModel: string): CatalogModel | undefined {
  return catalogFor(provider).find((c) => c.apiModel === apiModel);
}

export const PROVIDERS: readonly ProviderName[] = ['anthropic', 'openai', 'replay'];
