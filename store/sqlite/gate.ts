// A FIFO gate for one SQLite connection: while a transaction or a repository call holds it, every
// other caller of the same connection waits its turn, so no statement of another task slips into the
// open transaction (and is committed or rolled back with it). A repository call holds it from start
// to end because the repositories of store/queries/ await between their statements (one body serves
// both backends): two calls must not interleave their statements, nor one open a transaction
// (BEGIN IMMEDIATE, driver.atomic) the other's statements would join. A free gate is taken at once.

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

  /** Runs `fn` holding the gate: at once when it is free, else after everything queued before it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free) {
      this.held = true;
      let result: Promise<T>;
      try {
        result = fn();
      } catch (err) {
        this.release();
        throw err;
      }
      return result.finally(() => this.release());
    }
    return this.acquire().then(async () => {
      try {
        return await fn();
      } finally {
        this.release();
      }
    });
  }
}
