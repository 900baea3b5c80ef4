// The OpenAI Responses API adapter (OpenAI itself, or a compatible server through `baseURL`): one
// streamed, stateless request per attempt through the `openai` SDK's `responses.create` (its own
// retries off, ours on). Chosen per model block by `api` (config/stages/models.ts).

import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { createHttpFetch } from './httpFetch.js';
import { resolveNetworkOptions } from './clientOptions.js';
import { isOpenAIReasoningModel, type OpenAIClientOptions } from './openai.js';
import { toResponsesParams } from './responsesRequest.js';
import { ResponsesStreamAccumulator } from './responsesStream.js';
import { callSdk, drainStream } from './sdkCall.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

export function createResponsesClient(options: Omit<OpenAIClientOptions, 'maxTokensField'>): ModelClient {
  const network = resolveNetworkOptions(options);
  const sdk = new OpenAI({
    // The SDK refuses to start without a key; keyless local servers accept any.
    apiKey: options.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'none',
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    timeout: network.timeoutMs,
    fetch: createHttpFetch(),
  });
  const flag = options.supportsReasoning ?? isOpenAIReasoningModel;
  const supportsReasoning = typeof flag === 'function' ? flag : (): boolean => flag;

  async function complete(request: ModelRequest, call: CallOptions = {}): Promise<ModelResponse> {
    const params = toResponsesParams(request, { supportsReasoning });
    return callSdk({
      label: options.label ?? 'openai',
      network,
      errors: SDK_ERRORS,
      endpoint: sdk.baseURL,
      model: request.model,
      call,
      attempt: async (signal, onText) => drainStream(await sdk.responses.create(params, { signal, timeout: network.timeoutMs, maxRetries: 0 }), new ResponsesStreamAccumulator(onText)),
    });
  }

  return { provider: 'openai', complete };
}
