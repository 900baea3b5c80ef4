// The built-in model keys of each provider: the key written in HCL (`models.<block>.<key>`), the id
// sent on the wire, whether the model accepts a reasoning effort, its published price in USD per
// million tokens when one can be stated (a `pricing "<key>"` block overrides or supplies it), and
// the provider's end-of-life date for deprecated models. The key list follows the installed SDKs'
// model types (@anthropic-ai/sdk `Model`, openai `ChatModel`), Anthropic's deprecation table and
// Google's Gemini deprecations and model pages.

import type { ModelBlock, ModelRef, Pricing, ProviderName } from './graph.js';

export interface CatalogEndOfLife {
  /** `YYYY-MM-DD`: from this day on, requests to the model fail. */
  date: string;
  /** The catalog key to move to (same provider). */
  replacement: string;
}

export interface CatalogModel {
  key: string;
  apiModel: string;
  /** Other wire ids of the same model (an undated alias of a dated snapshot), for alias lookups. */
  otherIds?: readonly string[];
  reasoning: boolean;
  /**
   * Anthropic only: the request form for a reasoning effort. `budget` is extended thinking
   * (`thinking: {type: "enabled", budget_tokens}`), the only form of Claude 4.5 and earlier;
   * `adaptive` is `thinking: {type: "adaptive"}` with `output_config.effort`, the form of Claude
   * 4.6 and later (4.7 and later reject `budget` with a 400).
   */
  thinking?: 'budget' | 'adaptive';
  /** Absent when no single published price can be stated: the model then costs 0 unless priced. */
  pricing?: Pricing;
  /** Set once the provider has deprecated the model. */
  endOfLife?: CatalogEndOfLife;
  /** Input tokens one request may hold; absent: the provider's default for the family (see contextWindowOf). */
  contextWindow?: number;
}

/** The window of Claude models not listed below (the 1M-token beta of older ones is opt-in per request). */
const CLAUDE_WINDOW = 200_000;
/**
 * Claude models whose standard window is 1M tokens (Anthropic's model pages: the 4.6 generation on).
 * Claude Fable 5.2, Mythos 5.2 and Sonnet 5.5 are left at 200,000 until a model page states theirs:
 * a window set too small only compacts earlier, one set too large fails requests.
 */
const CLAUDE_MILLION = new Set([
  'claude-opus-5-5',
  'claude-haiku-5-5',
  'claude-fable-5-1',
  'claude-mythos-5-1',
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-fable-5',
  'claude-mythos-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-sonnet-4-6',
  'claude-mythos-preview',
]);
/** A model the catalog does not know (an alias to another id, a local server): small, so a session stays safe. */
export const UNKNOWN_CONTEXT_WINDOW = 32_000;

/** OpenAI windows per model where they differ from their family's, from the model pages of platform.openai.com. */
function openaiWindow(apiModel: string): number {
  if (apiModel === 'gpt-5.4' || apiModel === 'gpt-5.4-pro' || apiModel.startsWith('gpt-5.5')) return 1_050_000;
  if (apiModel === 'gpt-4-turbo') return 128_000;
  if (apiModel.startsWith('gpt-5')) return 400_000;
  if (apiModel.startsWith('gpt-4.1')) return 1_047_576;
  if (apiModel.startsWith('gpt-4o')) return 128_000;
  return 200_000; // o3, o4-mini
}

function claudeWindow(apiModel: string): number {
  return CLAUDE_MILLION.has(apiModel) ? 1_000_000 : CLAUDE_WINDOW;
}

/**
 * The context window of a resolved model, and where it comes from: the block's `context_window`,
 * else the catalog (a key, or an alias to a known wire id), else a conservative default.
 */
export function contextWindowOf(block: Pick<ModelBlock, 'contextWindow'> | undefined, ref: ModelRef): { window: number; via: 'catalog' | 'model block' | 'default' } {
  if (block?.contextWindow !== undefined) return { window: block.contextWindow, via: 'model block' };
  const known = catalogModel(ref.provider, ref.key) ?? catalogModelByApiId(ref.provider, ref.apiModel);
  if (known === undefined) return { window: UNKNOWN_CONTEXT_WINDOW, via: 'default' };
  if (known.contextWindow !== undefined) return { window: known.contextWindow, via: 'catalog' };
  return { window: known.apiModel.startsWith('claude') ? claudeWindow(known.apiModel) : openaiWindow(known.apiModel), via: 'catalog' };
}

/**
 * Anthropic's price for a model: cache writes (5 minutes) cost 1.25× input and cache reads 0.1×
 * input, as every model page of the Claude platform docs lists them.
 */
function claudePrice(input: number, output: number): Pricing {
  return { input, output, cacheRead: round(input * 0.1), cacheWrite: round(input * 1.25) };
}

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

const adaptive = (key: string, apiModel: string, pricing?: Pricing): CatalogModel => ({
  key,
  apiModel,
  reasoning: true,
  thinking: 'adaptive',
  ...(pricing ? { pricing } : {}),
});

const eol = (date: string, replacement: string): { endOfLife: CatalogEndOfLife } => ({ endOfLife: { date, replacement } });

// Prices: the model pages and release notes of platform.claude.com (read 2026-11-29). Claude Haiku
// 5.5 bills prompts over 100K tokens at 5× (a tier `Pricing` cannot express) and no price page was
// found for Claude Opus 4.7 or Claude Mythos Preview: they carry none. End-of-life dates: the SDK's
// deprecated-models data and Anthropic's model deprecations page.
const ANTHROPIC: readonly CatalogModel[] = [
  adaptive('claude_fable_5_2', 'claude-fable-5-2', claudePrice(8, 40)),
  adaptive('claude_mythos_5_2', 'claude-mythos-5-2', claudePrice(8, 40)),
  adaptive('claude_opus_5_5', 'claude-opus-5-5', claudePrice(4, 20)),
  adaptive('claude_sonnet_5_5', 'claude-sonnet-5-5', claudePrice(2, 10)),
  adaptive('claude_haiku_5_5', 'claude-haiku-5-5'),
  adaptive('claude_fable_5_1', 'claude-fable-5-1', claudePrice(10, 50)),
  adaptive('claude_mythos_5_1', 'claude-mythos-5-1', claudePrice(10, 50)),
  adaptive('claude_opus_5', 'claude-opus-5', claudePrice(5, 25)),
  adaptive('claude_sonnet_5', 'claude-sonnet-5', claudePrice(2, 10)),
  adaptive('claude_fable_5', 'claude-fable-5', claudePrice(10, 50)),
  adaptive('claude_mythos_5', 'claude-mythos-5', claudePrice(10, 50)),
  adaptive('claude_opus_4_8', 'claude-opus-4-8', claudePrice(5, 25)),
  adaptive('claude_opus_4_7', 'claude-opus-4-7'),
  adaptive('claude_opus_4_6', 'claude-opus-4-6', claudePrice(5, 25)),
  adaptive('claude_sonnet_4_6', 'claude-sonnet-4-6', claudePrice(3, 15)),
  { key: 'claude_haiku_4_5', apiModel: 'claude-haiku-4-5-20251001', otherIds: ['claude-haiku-4-5'], reasoning: true, thinking: 'budget', pricing: claudePrice(1, 5) },
  // Deprecated: still served until the date, then requests fail.
  { ...adaptive('claude_mythos_preview', 'claude-mythos-preview'), ...eol('2026-06-30', 'claude_mythos_5') },
  { key: 'claude_opus_4_5', apiModel: 'claude-opus-4-5-20251101', otherIds: ['claude-opus-4-5'], reasoning: true, thinking: 'budget', pricing: claudePrice(5, 25), ...eol('2027-01-22', 'claude_opus_5_5') },
  { key: 'claude_sonnet_4_5', apiModel: 'claude-sonnet-4-5-20250929', otherIds: ['claude-sonnet-4-5'], reasoning: true, thinking: 'budget', pricing: claudePrice(3, 15), ...eol('2026-11-30', 'claude_sonnet_5_5') },
  // Retired (no longer in the SDK's model list): kept so a reference says so instead of "unknown".
  { key: 'claude_opus_4_1', apiModel: 'claude-opus-4-1-20250805', reasoning: true, thinking: 'budget', pricing: claudePrice(15, 75), ...eol('2026-08-05', 'claude_opus_5_5') },
  { key: 'claude_sonnet_4', apiModel: 'claude-sonnet-4-20250514', reasoning: true, thinking: 'budget', pricing: claudePrice(3, 15), ...eol('2026-06-15', 'claude_sonnet_5_5') },
  { key: 'claude_opus_4', apiModel: 'claude-opus-4-20250514', reasoning: true, thinking: 'budget', pricing: claudePrice(15, 75), ...eol('2026-06-15', 'claude_opus_5_5') },
  { key: 'claude_3_7_sonnet', apiModel: 'claude-3-7-sonnet-20250219', reasoning: true, thinking: 'budget', pricing: claudePrice(3, 15), ...eol('2026-02-19', 'claude_sonnet_5_5') },
  { key: 'claude_3_5_haiku', apiModel: 'claude-3-5-haiku-20241022', reasoning: false, pricing: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }, ...eol('2026-02-19', 'claude_haiku_5_5') },
];

function openai(key: string, apiModel: string, reasoning: boolean, price?: [input: number, output: number, cachedInput: number]): CatalogModel {
  return { key, apiModel, reasoning, ...(price ? { pricing: { input: price[0], output: price[1], cacheRead: price[2] } } : {}) };
}

// The GPT-5.1 to 5.6 keys carry no price: none could be taken from OpenAI's own pages (GPT-5.6
// Sol's was promotional until 2026-11-21). The OpenAI SDK has no deprecation data.
const OPENAI: readonly CatalogModel[] = [
  openai('gpt_5_6_sol', 'gpt-5.6-sol', true),
  openai('gpt_5_6_terra', 'gpt-5.6-terra', true),
  openai('gpt_5_6_luna', 'gpt-5.6-luna', true),
  openai('gpt_5_5', 'gpt-5.5', true),
  // A Responses API model only (the default API for api.openai.com), as the SDK lists it.
  openai('gpt_5_5_pro', 'gpt-5.5-pro', true),
  openai('gpt_5_4', 'gpt-5.4', true),
  // Named on OpenAI's deprecations page (the substitute for o3-deep-research; a Codex variant),
  // not in the SDK's model lists: Responses API models (the default API for api.openai.com).
  openai('gpt_5_4_pro', 'gpt-5.4-pro', true),
  openai('gpt_5_3_codex', 'gpt-5.3-codex', true),
  openai('gpt_5_4_mini', 'gpt-5.4-mini', true),
  openai('gpt_5_4_nano', 'gpt-5.4-nano', true),
  openai('gpt_5_2', 'gpt-5.2', true),
  openai('gpt_5_2_pro', 'gpt-5.2-pro', true),
  openai('gpt_5_1', 'gpt-5.1', true),
  openai('gpt_5_1_mini', 'gpt-5.1-mini', true),
  openai('gpt_5', 'gpt-5', true, [1.25, 10, 0.125]),
  openai('gpt_5_mini', 'gpt-5-mini', true, [0.25, 2, 0.025]),
  openai('gpt_5_nano', 'gpt-5-nano', true, [0.05, 0.4, 0.005]),
  openai('gpt_4_1', 'gpt-4.1', false, [2, 8, 0.5]),
  openai('gpt_4_1_mini', 'gpt-4.1-mini', false, [0.4, 1.6, 0.1]),
  openai('gpt_4_1_nano', 'gpt-4.1-nano', false, [0.1, 0.4, 0.025]),
  openai('gpt_4o', 'gpt-4o', false, [2.5, 10, 1.25]),
  openai('gpt_4o_mini', 'gpt-4o-mini', false, [0.15, 0.6, 0.075]),
  openai('o3', 'o3', true, [2, 8, 0.5]),
  openai('o4_mini', 'o4-mini', true, [1.1, 4.4, 0.275]),
  // Retired on 2026-10-23 (the OpenAI SDK's deprecation notes): kept so a reference, in a config
  // written for the first implementation, says so instead of "unknown".
  { ...openai('o3_mini', 'o3-mini', true, [1.1, 4.4, 0.55]), ...eol('2026-10-23', 'gpt_5_4_mini') },
  { ...openai('o1', 'o1', true, [15, 60, 7.5]), ...eol('2026-10-23', 'gpt_5_5') },
  { ...openai('gpt_4_turbo', 'gpt-4-turbo', false, [10, 30, 10]), ...eol('2026-10-23', 'gpt_5_5') },
];

/** Gemini models' input token limit, as every Gemini 2.5 and 3.x model page states it. */
const GEMINI_WINDOW = 1_048_576;

/**
 * `thinking`: Gemini 3 takes a thinking level (`thinkingLevel`, the `adaptive` form), Gemini 2.5 a
 * token budget (`thinkingBudget`, the `budget` form); both think by default when no level is set.
 */
function gemini(key: string, apiModel: string, thinking: 'budget' | 'adaptive', price?: [input: number, output: number, cachedInput: number]): CatalogModel {
  return { key, apiModel, reasoning: true, thinking, contextWindow: GEMINI_WINDOW, ...(price ? { pricing: { input: price[0], output: price[1], cacheRead: price[2] } } : {}) };
}

// Models and end-of-life dates: Google's "Gemini deprecations" page,
// https://ai.google.dev/gemini-api/docs/deprecations (read 2026-12-05: Gemini 3.5 to 3.8 Flash and
// 3.5 Flash-Lite without a shutdown date; 3.1 Flash-Lite shut down on 2027-05-07; 2.5 Pro and 2.5
// Flash on 2026-12-01). Windows: the model pages (e.g. .../docs/models/gemini-3.1-pro-preview,
// input token limit 1,048,576); the 3.5 to 3.8 models are given their family's. Prices:
// https://ai.google.dev/gemini-api/docs/pricing, Standard tier, text input, for the models with one
// flat price (as reproduced by published price lists checked on 2026-12-05: 3.5 Flash $1.50/$9.00,
// 3.1 Flash-Lite $0.25/$1.50, 3 Flash $0.50/$3.00, 2.5 Flash $0.30/$2.50, 2.5 Flash-Lite
// $0.10/$0.40; cached input at a tenth of input); Pro models are billed at a higher rate above 200K
// prompt tokens (a tier `Pricing` cannot express), and no price could be found for 3.5 Flash-Lite and
// 3.6 to 3.8: those carry none, so a `pricing` block supplies it. Output prices include thinking tokens.
const GEMINI: readonly CatalogModel[] = [
  gemini('gemini_3_8_flash', 'gemini-3.8-flash', 'adaptive'),
  gemini('gemini_3_7_flash', 'gemini-3.7-flash', 'adaptive'),
  gemini('gemini_3_6_flash', 'gemini-3.6-flash', 'adaptive'),
  gemini('gemini_3_5_flash', 'gemini-3.5-flash', 'adaptive', [1.5, 9, 0.15]),
  gemini('gemini_3_5_flash_lite', 'gemini-3.5-flash-lite', 'adaptive'),
  gemini('gemini_3_1_pro_preview', 'gemini-3.1-pro-preview', 'adaptive'),
  gemini('gemini_3_flash_preview', 'gemini-3-flash-preview', 'adaptive', [0.5, 3, 0.05]),
  gemini('gemini_2_5_flash_lite', 'gemini-2.5-flash-lite', 'budget', [0.1, 0.4, 0.01]),
  // Deprecated: still served until the date, then requests fail.
  { ...gemini('gemini_3_1_flash_lite', 'gemini-3.1-flash-lite', 'adaptive', [0.25, 1.5, 0.025]), ...eol('2027-05-07', 'gemini_3_5_flash_lite') },
  // Retired: kept so a reference says so instead of "unknown".
  { ...gemini('gemini_2_5_pro', 'gemini-2.5-pro', 'budget'), ...eol('2026-12-01', 'gemini_3_8_flash') },
  { ...gemini('gemini_2_5_flash', 'gemini-2.5-flash', 'budget', [0.3, 2.5, 0.03]), ...eol('2026-12-01', 'gemini_3_5_flash_lite') },
  { ...gemini('gemini_3_pro_preview', 'gemini-3-pro-preview', 'adaptive'), ...eol('2026-03-09', 'gemini_3_1_pro_preview') },
];

/** The keys a provider offers built in. `replay` replays recorded traffic of any provider. */
export function catalogFor(provider: ProviderName): readonly CatalogModel[] {
  switch (provider) {
    case 'anthropic':
      return ANTHROPIC;
    case 'openai':
      return OPENAI;
    case 'gemini':
      return GEMINI;
    case 'ollama':
      // Whatever is pulled locally: any key is a model name (see resolveModelRef).
      return [];
    case 'replay':
      return REPLAY;
  }
}

const REPLAY: readonly CatalogModel[] = [...ANTHROPIC, ...OPENAI, ...GEMINI];

export function catalogModel(provider: ProviderName, key: string): CatalogModel | undefined {
  return catalogFor(provider).find((c) => c.key === key);
}

/** The catalog entry whose wire id is `apiModel`, so an alias to a known id inherits its facts. */
export function catalogModelByApiId(provider: ProviderName, apiModel: string): CatalogModel | undefined {
  return catalogFor(provider).find((c) => c.apiModel === apiModel || (c.otherIds?.includes(apiModel) ?? false));
}

export const PROVIDERS: readonly ProviderName[] = ['anthropic', 'openai', 'gemini', 'ollama', 'replay'];

/** Where Ollama listens by default (Go's default too); its OpenAI-compatible API is under /v1. */
export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434';
