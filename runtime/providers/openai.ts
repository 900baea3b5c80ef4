// The OpenAI Chat Completions adapter (OpenAI itself or any compatible server through `baseURL`):
// one streamed request per attempt through the `openai` SDK (its own retries off, ours on).

import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { createHttpFetch } from './httpFetch.js';
import { resolveNetworkOptions, type NetworkClientOptions } from './clientOptions.js';
import { toOpenAIParams, type MaxTokensField } from './openaiRequest.js';
import { OpenAIStreamAccumulator } from './openaiStream.js';
import { callSdk, drainStream } from './sdkCall.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

export interface OpenAIClientOptions extends NetworkClientOptions {
  /**
   * Whether a model accepts `reasoning_effort`. Default: OpenAI's reasoning families (o1, o3, o4,
   * gpt-5…) by model id; pass `false` for servers that reject the parameter.
   */
  supportsReasoning?: boolean | ((model: string) => boolean);
  /** Default: `max_completion_tokens` against OpenAI itself, `max_tokens` against a custom baseURL. */
  maxTokensField?: MaxTokensField;
  /** The prefix of error messages (default `openai`; `ollama` for an Ollama block). */
  label?: string;
}

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/** OpenAI's reasoning model families, which accept `reasoning_effort`. */
export function isOpenAIReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model);
}

export function createOpenAIClient(options: OpenAIClientOptions): ModelClient {
  const network = resolveNetworkOptions(options);
  const sdk = new OpenAI({
    // The SDK refuses to start without a key; keyless local servers accept any.
    apiKey: options.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'none',
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    // The SDK would print to stderr (a stream chunk it cannot parse); failures reach us as errors.
    logLevel: 'off',
    timeout: network.timeoutMs,
    fetch: createHttpFetch(),
  });
  const flag = options.supportsReasoning ?? isOpenAIReasoningModel;
  const supportsReasoning = typeof flag === 'function' ? flag : (): boolean => flag;
  const maxTokensField = options.maxTokensField ?? (options.baseURL === undefined ? 'max_completion_tokens' : 'max_tokens');

  async function complete(request: ModelRequest, call: CallOptions = {}): Promise<ModelResponse> {
    const params = toOpenAIParams(request, { supportsReasoning, maxTokensField });
    return callSdk({
      label: options.label ?? 'openai',
      network,
      errors: SDK_ERRORS,
      endpoint: sdk.baseURL,
      model: request.model,
      call,
      attempt: async (signal, onText) => drainStream(await sdk.chat.completions.create(params, { signal, timeout: network.timeoutMs, maxRetries: 0 }), new OpenAIStreamAccumulator(onText)),
    });
  }

  return { provider: 'openai', complete };
}
