import { describe, expect, it } from 'vitest';
import {
  AttemptFailed,
  backoffDelayMs,
  callWithRetries,
  DEFAULT_RETRY_POLICY,
  retryAfterFromHeaders,
  type RetryPolicy,
} from '../../../runtime/providers/retry.js';
import { ModelCallError, type RetryNotice } from '../../../runtime/providers/types.js';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('retryAfterFromHeaders', () => {
  it('reads seconds, milliseconds and HTTP dates, preferring retry-after-ms', () => {
    expect(retryAfterFromHeaders(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterFromHeaders(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterFromHeaders(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterFromHeaders(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:07 GMT' }), now)).toBe(7000);
    expect(retryAfterFromHeaders(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }), now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
    expect(retryAfterFromHeaders(headers({}))).toBeUndefined();
    expect(retryAfterFromHeaders(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterFromHeaders(headers({ 'retry-after': '-4' }))).toBeUndefined();
  });
});

describe('backoffDelayMs (full jitter)', () => {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('draws uniformly below a cap that doubles per retry and stops at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, policy, () => 0.999999))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(100);
  });
});

describe('callWithRetries', () => {
  const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 50 };
  const transient = new AttemptFailed({ kind: 'http', retryable: true, status: 500, reason: '500 server error' });

  it('retries retryable failures and returns the first success', async () => {
    let calls = 0;
    const notices: RetryNotice[] = [];
    const value = await callWithRetries({
      label: 'test',
      policy,
      timeoutMs: 1000,
      onRetry: (n) => notices.push(n),
      attempt: async () => {
        calls++;
        if (calls < 3) throw transient;
        return 'ok';
      },
      classify: () => ({ kind: 'protocol', retryable: false, reason: 'unexpected' }),
    });
    expect(value).toBe('ok');
    expect(notices.map((n) => n.attempt)).toEqual([1, 2]);
  });

  it('caps a long retry-after at maxRetryAfterMs', async () => {
    const notices: RetryNotice[] = [];
    let calls = 0;
    await callWithRetries({
      label: 'test',
      policy,
      timeoutMs: 1000,
      onRetry: (n) => notices.push(n),
      attempt: async () => {
        if (calls++ === 0) throw new AttemptFailed({ kind: 'http', retryable: true, status: 429, reason: '429', retryAfterMs: 3_600_000 });
        return 'ok';
      },
      classify: () => ({ kind: 'protocol', retryable: false, reason: 'unexpected' }),
    });
    expect(notices[0]?.delayMs).toBe(50);
  });

  it('does not retry what the classifier calls permanent', async () => {
    let calls = 0;
    const error = await callWithRetries({
      label: 'test',
      policy,
      timeoutMs: 1000,
      attempt: async () => {
        calls++;
        throw new Error('boom');
      },
      classify: () => ({ kind: 'http', retryable: false, status: 400, reason: '400 bad request' }),
    }).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).message).toBe('test: 400 bad request');
  });

  it('reports the per-request timeout as a retryable timeout', async () => {
    let calls = 0;
    const error = (await callWithRetries({
      label: 'test',
      policy: { ...policy, maxAttempts: 2 },
      timeoutMs: 30,
      attempt: (_n, signal) => {
        calls++;
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
      classify: () => ({ kind: 'protocol', retryable: false, reason: 'unexpected' }),
    }).catch((e: unknown) => e)) as ModelCallError;
    expect(calls).toBe(2);
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('test: request timed out after 30 ms (gave up after 2 attempts)');
  });

  it('stops waiting between attempts when the caller aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = callWithRetries({
      label: 'test',
      policy: { ...policy, maxRetryAfterMs: 10_000 },
      timeoutMs: 1000,
      signal: controller.signal,
      attempt: async () => {
        throw new AttemptFailed({ kind: 'http', retryable: true, status: 429, reason: '429', retryAfterMs: 10_000 });
      },
      classify: () => ({ kind: 'protocol', retryable: false, reason: 'unexpected' }),
    });
    setTimeout(() => controller.abort(), 50);
    const error = (await pending.catch((e: unknown) => e)) as ModelCallError;
    expect(error.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(9000) // well short of the 10 s retry-after it was told to wait;
  });
});
