// Stage 2: `model` blocks. Each block is one provider configuration; references name the block and
// a key (`models.<block>.<key>`), so two blocks of one provider stay distinct. A missing api_key is
// recorded, not an error: a local OpenAI-compatible server may not need one, and `run` says so.

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import type { ModelApi, ModelBlock, Pricing, ProviderName } from '../graph.js';
import { catalogFor, catalogModel, catalogModelByApiId, OLLAMA_DEFAULT_BASE_URL, PROVIDERS } from '../modelCatalog.js';
import { blockHeader, decodeBody, locationOf, NameRegistry, type BlockSchema } from '../schema.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { scopeFor, type LoadContext, type Scope } from '../scope.js';
import { suggestionHint } from '../suggest.js';
import { checkHttpUrl, readBool, readEnum, readInteger, readNumber, readString, readStringMap } from '../values.js';

const SCHEMA: BlockSchema = {
  attributes: {
    provider: { required: true },
    api_key: {},
    base_url: {},
    api: {},
    aliases: {},
    max_output_tokens: {},
    context_window: {},
    cassette: {},
    timeout_seconds: {},
    max_retries: {},
    stream: {},
    prompt_caching: {},
  },
  blocks: { pricing: { labels: ['model_key'] } },
};

const PRICING_SCHEMA: BlockSchema = { attributes: { input: { required: true }, output: { required: true }, cache_read: {}, cache_write: {} } };

export function loadModels(blocks: readonly Block[], ctx: LoadContext): ModelBlock[] {
  const models = loadNamedBlocks(blocks, 'model', ctx, (block, name) => loadModel(block, name, ctx), { namespace: 'models' });
  for (const m of models) ctx.symbols.models.set(m.name, m);
  return models;
}

function loadModel(block: Block, name: string, ctx: LoadContext): ModelBlock | undefined {
  const where = `model "${name}"`;
  const scope = scopeFor(ctx, 'model', 'a model block');
  const body = decodeBody(block.body, SCHEMA, { what: where, header: blockHeader(block) }, ctx.diags);
  const a = (n: string) => body.attrs.get(n);
  const provider = readEnum<ProviderName>(a('provider'), PROVIDERS, scope, ctx.diags);
  // Accepted from configs of the first implementation: prompt caching is always on here.
  if (readBool(a('prompt_caching'), scope, ctx.diags) === false) {
    ctx.diags.push(diagnosticAt(a('prompt_caching')!.nameRange, 'warning', 'GO010', `prompt_caching = false in ${where} is ignored`, 'Squadron always marks the stable start of a request for caching (Anthropic) or lets the provider cache it (OpenAI, Gemini): cached input costs less; remove the attribute'));
  }
  const apiKey = readString(a('api_key'), scope, ctx.diags);
  const baseUrl = readString(a('base_url'), scope, ctx.diags);
  const apiAttr = a('api');
  const api = readEnum<ModelApi>(apiAttr, MODEL_APIS, scope, ctx.diags);
  const aliases = readStringMap(a('aliases'), scope, ctx.diags) ?? {};
  const maxOutputTokens = readInteger(a('max_output_tokens'), scope, ctx.diags, 1);
  const contextWindow = readInteger(a('context_window'), scope, ctx.diags, 1_000);
  const timeoutSeconds = readNumber(a('timeout_seconds'), scope, ctx.diags);
  const maxRetries = readInteger(a('max_retries'), scope, ctx.diags, 0);
  const timeoutAttr = a('timeout_seconds');
  if (timeoutSeconds !== undefined && timeoutSeconds <= 0 && timeoutAttr !== undefined) {
    ctx.diags.push(diagnosticAt(timeoutAttr.expr.range, 'error', 'SCH013', `timeout_seconds must be greater than 0, got ${timeoutSeconds}`));
  }
  if (baseUrl !== undefined) checkHttpUrl(baseUrl, a('base_url')!.expr.range, ctx.diags);

  const cassetteAttr = a('cassette');
  let cassette: string | undefined;
  if (provider !== undefined && provider !== 'replay' && cassetteAttr !== undefined) {
    ctx.diags.push(diagnosticAt(cassetteAttr.nameRange, 'error', 'SCH012', `cassette is only used with provider = "replay"`, `this block's provider is "${provider}"`));
  } else if (provider === 'replay') {
    if (cassetteAttr === undefined) {
      ctx.diags.push(diagnosticAt(blockHeader(block), 'error', 'SCH003', `${where} is missing the required attribute "cassette" (provider "replay" replays a recorded cassette)`));
    } else {
      const path = readString(cassetteAttr, scope, ctx.diags);
      if (path !== undefined) {
        cassette = resolve(dirname(block.range.file), path);
        if (!existsSync(cassette)) {
          ctx.diags.push(diagnosticAt(cassetteAttr.expr.range, 'warning', 'FIL007', `cassette ${path} does not exist yet`, `looked for ${cassette}`));
        }
      }
    }
  }
  const streamAttr = a('stream');
  const stream = readBool(streamAttr, scope, ctx.diags);
  if (provider !== undefined && provider !== 'gemini' && streamAttr !== undefined) {
    ctx.diags.push(diagnosticAt(streamAttr.nameRange, 'error', 'SCH012', `stream is only used with provider = "gemini"`, `provider "${provider}" always streams`));
  }
  if (provider !== undefined && provider !== 'openai' && provider !== 'ollama' && apiAttr !== undefined) {
    ctx.diags.push(diagnosticAt(apiAttr.nameRange, 'error', 'SCH012', `api is only used with provider = "openai" or "ollama"`, `this block's provider is "${provider}", which speaks one API`));
  }
  if (provider === undefined) return undefined;

  const pricing = defaultPricing(provider, aliases);
  const priced = new NameRegistry('pricing');
  for (const p of body.blocks.get('pricing') ?? []) {
    const key = p.labels[0]!;
    if (!priced.claim(key, p.labelRanges[0]!, ctx.diags)) continue;
    if (aliases[key] === undefined && catalogModel(provider, key) === undefined) {
      const keys = [...Object.keys(aliases), ...catalogFor(provider).map((c) => c.key)];
      ctx.diags.push(
        diagnosticAt(p.labelRanges[0]!, 'error', 'REF009', `model block "${name}" (${provider}) has no model "${key}" to price`, suggestionHint(key, keys, (c) => `"${c}"`)),
      );
      continue;
    }
    const price = readPricing(p, key, scope, ctx);
    if (price !== undefined) pricing[key] = price;
  }

  const model: ModelBlock = { name, provider, aliases, pricing, location: locationOf(block) };
  if (apiKey !== undefined) model.apiKey = apiKey;
  if (provider === 'ollama') model.baseUrl = baseUrl ?? OLLAMA_DEFAULT_BASE_URL;
  else if (baseUrl !== undefined) model.baseUrl = baseUrl;
  if (provider === 'openai' || provider === 'ollama') model.api = api ?? defaultApi(provider, baseUrl);
  if (maxOutputTokens !== undefined) model.maxOutputTokens = maxOutputTokens;
  if (contextWindow !== undefined) model.contextWindow = contextWindow;
  if (cassette !== undefined) model.cassette = cassette;
  if (timeoutSeconds !== undefined && timeoutSeconds > 0) model.timeoutSeconds = timeoutSeconds;
  if (maxRetries !== undefined) model.maxRetries = maxRetries;
  if (stream !== undefined && provider === 'gemini') model.stream = stream;
  return model;
}

const MODEL_APIS: readonly ModelApi[] = ['responses', 'chat_completions'];

/**
 * OpenAI's own endpoint speaks the Responses API, which carries a reasoning model's reasoning from
 * one tool call to the next; most compatible servers (vLLM, LM Studio, proxies) and Ollama before
 * 0.13.3 speak only Chat Completions, so a block pointing elsewhere defaults to that.
 */
function defaultApi(provider: 'openai' | 'ollama', baseUrl: string | undefined): ModelApi {
  if (provider === 'ollama') return 'chat_completions';
  if (baseUrl === undefined) return 'responses';
  try {
    return new URL(baseUrl).hostname === 'api.openai.com' ? 'responses' : 'chat_completions';
  } catch {
    return 'chat_completions';
  }
}

/**
 * Catalog prices for every key the block offers that has one; aliases to a known wire id inherit
 * its price. A key left without a price costs 0 (the model-use check warns where one is used).
 */
function defaultPricing(provider: ProviderName, aliases: Readonly<Record<string, string>>): Record<string, Pricing> {
  const pricing: Record<string, Pricing> = {};
  for (const c of catalogFor(provider)) if (c.pricing !== undefined) pricing[c.key] = { ...c.pricing };
  for (const [key, apiModel] of Object.entries(aliases)) {
    const known = catalogModelByApiId(provider, apiModel)?.pricing;
    if (known !== undefined) pricing[key] = { ...known };
    else delete pricing[key];
  }
  return pricing;
}

function readPricing(block: Block, key: string, scope: Scope, ctx: LoadContext): Pricing | undefined {
  const body = decodeBody(block.body, PRICING_SCHEMA, { what: `pricing "${key}"`, header: blockHeader(block) }, ctx.diags);
  const values: Partial<Record<'input' | 'output' | 'cache_read' | 'cache_write', number>> = {};
  let ok = true;
  for (const field of ['input', 'output', 'cache_read', 'cache_write'] as const) {
    const attr = body.attrs.get(field);
    const n = readNumber(attr, scope, ctx.diags);
    if (attr === undefined) continue;
    if (n === undefined) {
      ok = false;
    } else if (n < 0) {
      ctx.diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH013', `${field} must not be negative (USD per million tokens)`));
      ok = false;
    } else values[field] = n;
  }
  if (!ok || values.input === undefined || values.output === undefined) return undefined;
  const price: Pricing = { input: values.input, output: values.output };
  if (values.cache_read !== undefined) price.cacheRead = values.cache_read;
  if (values.cache_write !== undefined) price.cacheWrite = values.cache_write;
  return price;
}
