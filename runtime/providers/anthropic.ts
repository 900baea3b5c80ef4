// The Anthropic Messages API adapter: one streamed request per attempt through @anthropic-ai/sdk
// (its own retries off, ours on), translated to and from the canonical shapes.

import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { toAnthropicParams } from './anthropicRequest.js';
import { AnthropicStreamAccumulator } from './anthropicStream.js';
import { resolveNetworkOptions, type NetworkClientOptions } from './clientOptions.js';
import { callWithRetries } from './retry.js';
import { classifySdkError } from './sdkErrors.js';
import { TextProgress } from './textProgress.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

export interface AnthropicClientOptions extends NetworkClientOptions {
  /** Add a cache breakpoint on the newest user block too (default true). */
  cacheConversation?: boolean;
}

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const { timeoutMs, policy, random } = resolveNetworkOptions(options);
  const sdk = new Anthropic({
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    timeout: timeoutMs,
  });
  const cacheConversation = options.cacheConversation ?? true;

  async function complete(request: ModelRequest, call: CallOptions = {}): Promise<ModelResponse> {
    const params = toAnthropicParams(request, { cacheConversation });
    const progress = new TextProgress(call.onTextDelta);
    return callWithRetries({
      label: 'anthropic',
      policy,
      timeoutMs,
      random,
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.onRetry ? { onRetry: call.onRetry } : {}),
      attempt: async (_attempt, signal) => {
        const accumulator = new AnthropicStreamAccumulator(progress.sink());
        const stream = await sdk.messages.create(params, { signal, timeout: timeoutMs, maxRetries: 0 });
        for await (const event of stream) accumulator.apply(event);
        return accumulator.finish();
      },
      classify: (error) =>
        classifySdkError(error, SDK_ERRORS, {
          authHint: "check the model block's api_key",
          model: request.model,
          endpoint: sdk.baseURL,
        }),
    });
  }

  return { provider: 'anthropic', complete };
}
