// Options every network adapter takes: where the server is, the key, the per-request timeout and
// the retry policy (tests shorten the backoff through `retry.baseDelayMs`).

import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

export interface NetworkClientOptions {
  apiKey?: string;
  /** Server root, e.g. the fake server's url (Anthropic) or url + "/v1" (OpenAI). */
  baseURL?: string;
  /** Per attempt, the whole streamed response included. Default 600 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Source of jitter; tests may pin it. */
  random?: () => number;
}

export interface ResolvedNetworkOptions {
  timeoutMs: number;
  policy: RetryPolicy;
  random: () => number;
}

export function resolveNetworkOptions(options: NetworkClientOptions): ResolvedNetworkOptions {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
  const policy = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(options.retry ?? {}) };
  if (!(policy.maxAttempts >= 1)) throw new RangeError(`retry.maxAttempts must be at least 1, got ${policy.maxAttempts}`);
  return { timeoutMs, policy, random: options.random ?? Math.random };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
