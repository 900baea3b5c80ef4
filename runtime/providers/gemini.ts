// The Gemini adapter (Google's Gemini API, or a proxy or gateway speaking it through `baseURL`): one
// `streamGenerateContent` (SSE) or `generateContent` request per attempt through the @google/genai
// SDK, its own retries off and ours on. The request and response translations are geminiRequest.ts
// and geminiStream.ts; errors are classified in geminiErrors.ts.
//
// Google's newer Interactions API would be a second client beside this one (`geminiInteractions.ts`,
// chosen by an `api` attribute on the model block as for OpenAI): the canonical parts already carry
// what it needs (thought signatures on their parts, stable call ids), so only the two translations
// and the stream's event folding would be new; retries, errors and the transport are shared.

import { Readable } from 'node:stream';
import { GoogleGenAI } from '@google/genai';
import { resolveNetworkOptions, type NetworkClientOptions } from './clientOptions.js';
import { classifyGeminiError, droppedStream } from './geminiErrors.js';
import { toGeminiParams } from './geminiRequest.js';
import { GeminiResponseAccumulator } from './geminiStream.js';
import { createHttpFetch, type SdkFetch } from './httpFetch.js';
import { callWithRetries } from './retry.js';
import { TextProgress } from './textProgress.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from './types.js';

export interface GeminiClientOptions extends NetworkClientOptions {
  /** `false`: one `generateContent` answer per request instead of an SSE stream (default true). */
  stream?: boolean;
}

export function createGeminiClient(options: GeminiClientOptions): ModelClient {
  const network = resolveNetworkOptions(options);
  const stream = options.stream ?? true;
  const sdk = new GoogleGenAI({
    // The SDK refuses to start without a key; a keyless proxy accepts any.
    apiKey: options.apiKey ?? process.env['GEMINI_API_KEY'] ?? process.env['GOOGLE_API_KEY'] ?? 'none',
    // v1beta: where thinking config, `parametersJsonSchema` and thought signatures are served (the
    // SDK's default is v1).
    apiVersion: 'v1beta',
    // No `retryOptions`: the SDK then makes one attempt, and ours decide.
    httpOptions: { ...(options.baseURL !== undefined ? { baseUrl: options.baseURL } : {}), fetch: webStreamFetch(createHttpFetch()) },
  });
  const endpoint = options.baseURL ?? 'https://generativelanguage.googleapis.com';

  async function complete(request: ModelRequest, call: CallOptions = {}): Promise<ModelResponse> {
    const params = toGeminiParams(request);
    const progress = new TextProgress(call.onTextDelta);
    const { timeoutMs, policy, random } = network;
    const response = await callWithRetries({
      label: 'gemini',
      policy,
      timeoutMs,
      random,
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.onRetry ? { onRetry: call.onRetry } : {}),
      attempt: async (_attempt, signal) => {
        const accumulator = new GeminiResponseAccumulator(progress.sink());
        const attemptParams = { ...params, config: { ...params.config, abortSignal: signal } };
        if (!stream) {
          accumulator.apply(await sdk.models.generateContent(attemptParams));
          return accumulator.finish();
        }
        const chunks = await sdk.models.generateContentStream(attemptParams);
        try {
          for await (const chunk of chunks) accumulator.apply(chunk);
        } catch (error) {
          throw droppedStream(error);
        }
        return accumulator.finish();
      },
      classify: (error) => classifyGeminiError(error, { authHint: "check the model block's api_key", model: request.model, endpoint }),
    });
    return response.model === '' ? { ...response, model: request.model } : response;
  }

  return { provider: 'gemini', complete };
}

/**
 * The SDK reads a streamed body through `body.getReader()` (read, releaseLock) only; our transport
 * hands out the socket's Node stream, so the body gets a reader over the stream's own iterator
 * (a whole web ReadableStream around it cost more CPU per request: bench/model-request.mjs).
 */
function webStreamFetch(inner: SdkFetch): SdkFetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const body: unknown = response.body;
    if (!(body instanceof Readable)) return response;
    Object.defineProperty(response, 'body', { value: Object.assign(body, { getReader: () => readerOf(body) }), configurable: true });
    return response;
  };
}

type ReadResult = { done: true; value: undefined } | { done: false; value: Uint8Array };

function readerOf(stream: Readable): { read(): Promise<ReadResult>; releaseLock(): void } {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return {
    read: async (): Promise<ReadResult> => {
      const next = await chunks.next();
      return next.done ? { done: true, value: undefined } : { done: false, value: next.value };
    },
    // The SDK releases the reader when it stops reading; a stream it left unfinished is closed.
    releaseLock: () => void chunks.return?.(),
  };
}
