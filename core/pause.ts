// One way to wait that a stop can cut short: retries between provider attempts, runners polling a
// queue, staggered starts of an iterated task's items.

/** Resolves after `ms`, or at once when `signal` is (or becomes) aborted; never rejects. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
