// The retry loop shared by the network adapters: run one attempt under a per-request timeout,
// classify its failure, wait (full-jitter exponential backoff, or what the server's retry-after
// asks) and try again, up to a bounded number of attempts; then fail with one ModelCallError.

import { ModelCallError, type ModelCallErrorKind, type RetryNotice } from './types.js';
import { pause } from '../../core/pause.js';

export interface RetryPolicy {
  /** Total attempts, the first one included. */
  maxAttempts: number;
  /** Backoff cap for the first retry; doubles on each further retry. */
  baseDelayMs: number;
  /** Upper bound of the exponential backoff. */
  maxDelayMs: number;
  /** A server's retry-after is honoured up to this long. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 120_000,
};

export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** One failed attempt, classified from a status code or an error class (never from message text). */
export interface AttemptFailure {
  kind: ModelCallErrorKind;
  retryable: boolean;
  /** One line without the provider prefix, e.g. `429 rate limited: slow down`. */
  reason: string;
  status?: number;
  retryAfterMs?: number;
}

/** Thrown inside an attempt when the adapter itself detects the failure (e.g. a stream that broke off). */
export class AttemptFailed extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.reason);
    this.name = 'AttemptFailed';
  }
}

export interface HeaderSource {
  get(name: string): string | null;
}

/** `retry-after-ms` (milliseconds) wins over `retry-after` (seconds or an HTTP date). */
export function retryAfterFromHeaders(headers: HeaderSource | undefined, nowMs = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Full jitter: uniform in [0, min(maxDelay, base·2^(retry−1))]. `retry` is 1 for the first retry. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * cap);
}

export interface RetryRun<T> {
  /** Provider label used as the message prefix (`anthropic`, `openai`). */
  label: string;
  policy: RetryPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  random?: () => number;
  /** One attempt; must honour `signal` (aborted on timeout or by the caller). */
  attempt: (attemptNumber: number, signal: AbortSignal) => Promise<T>;
  /** Maps whatever the attempt threw to a failure. `AttemptFailed` is unwrapped before this is called. */
  classify: (error: unknown) => AttemptFailure;
}

export async function callWithRetries<T>(run: RetryRun<T>): Promise<T> {
  const maxAttempts = Math.max(1, Math.floor(run.policy.maxAttempts));
  for (let attempt = 1; ; attempt++) {
    throwIfCallerAborted(run.label, run.signal, attempt - 1);
    const outcome = await runOneAttempt(run, attempt);
    if (outcome.ok) return outcome.value;
    const failure = outcome.failure;
    if (failure.kind === 'aborted') {
      throw new ModelCallError(`${run.label}: request aborted`, undefined, false, { kind: 'aborted', attempts: attempt });
    }
    if (!failure.retryable || attempt >= maxAttempts) {
      const suffix = failure.retryable && attempt > 1 ? ` (gave up after ${attempt} attempts)` : '';
      throw new ModelCallError(`${run.label}: ${failure.reason}${suffix}`, failure.status, failure.retryable, {
        kind: failure.kind,
        attempts: attempt,
      });
    }
    const delayMs =
      failure.retryAfterMs !== undefined
        ? Math.min(failure.retryAfterMs, run.policy.maxRetryAfterMs)
        : backoffDelayMs(attempt, run.policy, run.random);
    const status = failure.status !== undefined ? { status: failure.status } : {};
    run.onRetry?.({ attempt, delayMs, reason: failure.reason, ...status });
    await pause(delayMs, run.signal);
  }
}

type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; failure: AttemptFailure };

async function runOneAttempt<T>(run: RetryRun<T>, attempt: number): Promise<AttemptOutcome<T>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, run.timeoutMs);
  const onCallerAbort = (): void => controller.abort();
  run.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    return { ok: true, value: await run.attempt(attempt, controller.signal) };
  } catch (error) {
    // The flags decide first: an SDK may report our own abort as anything, or swallow it and end
    // the stream early (which the adapter then reports as a broken stream).
    if (run.signal?.aborted) return { ok: false, failure: { kind: 'aborted', retryable: false, reason: 'request aborted' } };
    if (timedOut) {
      return {
        ok: false,
        failure: { kind: 'timeout', retryable: true, reason: `request timed out after ${formatSeconds(run.timeoutMs)}` },
      };
    }
    if (error instanceof AttemptFailed) return { ok: false, failure: error.failure };
    return { ok: false, failure: run.classify(error) };
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onCallerAbort);
  }
}

function throwIfCallerAborted(label: string, signal: AbortSignal | undefined, attempts: number): void {
  if (signal?.aborted) {
    throw new ModelCallError(`${label}: request aborted`, undefined, false, { kind: 'aborted', attempts });
  }
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
