// A FIFO gate for one SQLite connection: while a transaction holds it, every other caller of the
// same connection waits its turn, so no statement of another task slips into the open transaction
// (and is committed or rolled back with it). A free gate costs nothing: the caller runs at once.

export class Gate {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  /** True when a caller may run now without queueing. */
  get free(): boolean {
    return !this.held && this.waiting.length === 0;
  }

  /** Resolves when the gate is ours; release() must follow. */
  acquire(): Promise<void> {
    if (this.free) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the gate to the longest waiter, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.held = false;
    else next();
  }

  /** Runs `fn` at once when the gate is free, else after everything queued before it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free) return fn();
    return this.acquire().then(async () => {
      try {
        return await fn();
      } finally {
        this.release();
      }
    });
  }
}
