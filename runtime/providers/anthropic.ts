// The Anthropic Messages API adapter: one streamed request per attempt through @anthropic-ai/sdk
// (its own retries off, ours on), translated to and from the canonical shapes.

import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { toAnthropicParams } from './anthropicRequest.js';
import { AnthropicStreamAccumulator } from './anthropicStream.js';
import { createHttpFetch } from './httpFetch.js';
import { resolveNetworkOptions, type NetworkClientOptions } from './clientOptions.js';
import { callSdk, drainStream } from './sdkCall.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

export interface AnthropicClientOptions extends NetworkClientOptions {
  /** Add a cache breakpoint on the newest user block too (default true). */
  cacheConversation?: boolean;
}

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const network = resolveNetworkOptions(options);
  const sdk = new Anthropic({
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    // The SDK would print to stderr (a stream chunk it cannot parse); failures reach us as errors.
    logLevel: 'off',
    timeout: network.timeoutMs,
    fetch: createHttpFetch(),
  });
  const cacheConversation = options.cacheConversation ?? true;

  async function complete(request: ModelRequest, call: CallOptions = {}): Promise<ModelResponse> {
    const params = toAnthropicParams(request, { cacheConversation });
    return callSdk({
      label: 'anthropic',
      network,
      errors: SDK_ERRORS,
      endpoint: sdk.baseURL,
      model: request.model,
      call,
      attempt: async (signal, onText) => drainStream(await sdk.messages.create(params, { signal, timeout: network.timeoutMs, maxRetries: 0 }), new AnthropicStreamAccumulator(onText)),
    });
  }

  return { provider: 'anthropic', complete };
}
