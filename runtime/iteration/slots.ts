// The run's units of work running at once (`max_parallel`): a task is one unit, an item of an
// iterated task is one unit. A counting semaphore with a FIFO queue, so items waiting for a slot get
// them in order and a freed slot never sits idle while someone waits.

export class UnitSlots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {}

  get free(): number {
    return Math.max(0, this.capacity - this.used);
  }

  /** Takes a slot now if one is free. */
  tryTake(): boolean {
    if (this.used >= this.capacity || this.waiting.length > 0) return false;
    this.used++;
    return true;
  }

  /** Resolves once a slot is taken; rejects if `signal` aborts first. */
  take(signal?: AbortSignal): Promise<void> {
    if (this.tryTake()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const abort = (): void => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(grant);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter: `used` stays the same.
    if (next) next();
    else this.used = Math.max(0, this.used - 1);
  }
}
