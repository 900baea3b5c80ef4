// One model request through a provider SDK, the way both adapters make it: a fresh stream per
// attempt under our retry loop (the SDK's own retries are off), its errors classified by status.

import type { ResolvedNetworkOptions } from './clientOptions.js';
import { callWithRetries } from './retry.js';
import { classifySdkError, type SdkErrorClasses } from './sdkErrors.js';
import { TextProgress } from './textProgress.js';
import type { CallOptions, ModelResponse } from './types.js';

export interface SdkCall {
  /** `anthropic` or `openai`: the prefix of every error message. */
  label: string;
  network: ResolvedNetworkOptions;
  errors: SdkErrorClasses;
  /** The SDK's base URL, named when a connection fails. */
  endpoint: string;
  model: string;
  call: CallOptions;
  /** Streams one attempt, feeding text to `onText`; must honour `signal`. */
  attempt: (signal: AbortSignal, onText: (text: string) => void) => Promise<ModelResponse>;
}

export function callSdk(c: SdkCall): Promise<ModelResponse> {
  const progress = new TextProgress(c.call.onTextDelta);
  const { timeoutMs, policy, random } = c.network;
  return callWithRetries({
    label: c.label,
    policy,
    timeoutMs,
    random,
    ...(c.call.signal ? { signal: c.call.signal } : {}),
    ...(c.call.onRetry ? { onRetry: c.call.onRetry } : {}),
    attempt: (_attempt, signal) => c.attempt(signal, progress.sink()),
    classify: (error) => classifySdkError(error, c.errors, { authHint: "check the model block's api_key", model: c.model, endpoint: c.endpoint }),
  });
}

/** One attempt's stream, fed event by event to its accumulator, which then gives the response. */
export async function drainStream<E>(stream: AsyncIterable<E>, accumulator: { apply(event: E): void; finish(): ModelResponse }): Promise<ModelResponse> {
  for await (const event of stream) accumulator.apply(event);
  return accumulator.finish();
}
