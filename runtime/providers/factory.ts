// Builds the ModelClient for a model block: the adapter of its provider and API (`openai` and
// `ollama` blocks: Responses or Chat Completions) with the block's key, base URL, timeout and retry
// bound, optionally wrapped in a cassette recorder.

import type { ModelBlock } from '../../config/graph.js';
import type { CassetteRedactor } from './cassette.js';
import type { NetworkClientOptions } from './clientOptions.js';
import { createRecordingClient } from './record.js';
import { createReplayClient } from './replay.js';
import type { RetryPolicy } from './retry.js';
import type { ModelClient } from './types.js';

export interface ModelClientFactoryOptions {
  /** Overrides the backoff base (tests use a few milliseconds). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Caps how long a server's retry-after is honoured. */
  maxRetryAfterMs?: number;
  /** Total attempts; overrides the block's `max_retries` (which counts retries, not attempts). */
  maxAttempts?: number;
  /** Per-request timeout; overrides the block's `timeout_seconds`. */
  timeoutMs?: number;
  random?: () => number;
  /** OpenAI only: which models accept `reasoning_effort` (see createOpenAIClient). */
  supportsReasoning?: boolean | ((model: string) => boolean);
  /** Anthropic only: cache breakpoint on the newest user block (default true). */
  cacheConversation?: boolean;
  /** Record every completed turn into this cassette (redacted with `redactor`). Ignored for replay blocks. */
  record?: { cassette: string };
  /** The run's secrets, kept out of recorded cassettes and out of what replay compares. */
  redactor?: CassetteRedactor;
}

export function createModelClient(block: ModelBlock, options: ModelClientFactoryOptions = {}): ModelClient {
  if (block.provider === 'replay') {
    if (block.cassette === undefined) {
      throw new Error(`model block "${block.name}" has provider "replay" but no cassette`);
    }
    return createReplayClient({ cassette: block.cassette, ...(options.redactor ? { redactor: options.redactor } : {}) });
  }
  const network = networkOptions(block, options);
  const client =
    block.provider === 'gemini'
      ? onFirstCall('gemini', async () =>
          (await import('./gemini.js')).createGeminiClient({ ...network, ...(block.stream !== undefined ? { stream: block.stream } : {}) }),
        )
      : block.provider === 'anthropic'
      ? onFirstCall('anthropic', async () =>
          (await import('./anthropic.js')).createAnthropicClient({
            ...network,
            ...(options.cacheConversation !== undefined ? { cacheConversation: options.cacheConversation } : {}),
          }),
        )
      : block.api === 'responses'
        ? onFirstCall('openai', async () =>
            (await import('./responses.js')).createResponsesClient({
              ...network,
              ...(block.provider === 'ollama' ? { label: 'ollama' } : {}),
              ...(options.supportsReasoning !== undefined ? { supportsReasoning: options.supportsReasoning } : {}),
            }),
          )
        : onFirstCall('openai', async () =>
            (await import('./openai.js')).createOpenAIClient({
              ...network,
              ...(block.provider === 'ollama' ? { label: 'ollama' } : {}),
              ...(options.supportsReasoning !== undefined ? { supportsReasoning: options.supportsReasoning } : {}),
            }),
          );
  return options.record ? createRecordingClient(client, { cassette: options.record.cassette, ...(options.redactor ? { redactor: options.redactor } : {}) }) : client;
}

/**
 * A provider's SDK (~1 MB of code, and Node's fetch under it) is loaded when the block's first request
 * is about to be sent, not when its client is created: a run creates the clients of its commander and
 * workers as it starts, and a resume that finds their answers in the store sends nothing. Loading it
 * earlier bought nothing measurable (bench/persistence.mjs, resume rows): the code is compiled on the
 * same thread either way. Concurrent first calls share one load.
 */
function onFirstCall(provider: ModelClient['provider'], create: () => Promise<ModelClient>): ModelClient {
  let client: Promise<ModelClient> | undefined;
  return {
    provider,
    complete: async (request, call) => (await (client ??= create())).complete(request, call),
  };
}

function networkOptions(block: ModelBlock, options: ModelClientFactoryOptions): NetworkClientOptions {
  const retry: Partial<RetryPolicy> = {};
  const maxAttempts = options.maxAttempts ?? (block.maxRetries !== undefined ? block.maxRetries + 1 : undefined);
  if (maxAttempts !== undefined) retry.maxAttempts = maxAttempts;
  if (options.retryBaseDelayMs !== undefined) retry.baseDelayMs = options.retryBaseDelayMs;
  if (options.retryMaxDelayMs !== undefined) retry.maxDelayMs = options.retryMaxDelayMs;
  if (options.maxRetryAfterMs !== undefined) retry.maxRetryAfterMs = options.maxRetryAfterMs;
  const timeoutMs = options.timeoutMs ?? (block.timeoutSeconds !== undefined ? block.timeoutSeconds * 1000 : undefined);
  return {
    retry,
    ...(block.apiKey !== undefined ? { apiKey: block.apiKey } : block.provider === 'ollama' ? { apiKey: 'ollama' } : {}),
    ...(block.baseUrl !== undefined ? { baseURL: block.provider === 'ollama' ? ollamaOpenAIBase(block.baseUrl) : block.baseUrl } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(options.random ? { random: options.random } : {}),
  };
}

/**
 * Ollama is spoken to through its OpenAI-compatible API (`/v1/chat/completions`, or `/v1/responses`
 * with `api = "responses"`): a block's `base_url` is the server root, as Ollama documents it.
 */
function ollamaOpenAIBase(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return root.endsWith('/v1') ? root : `${root}/v1`;
}
