// A run's events (or every run's) as they are stored, from a given id on: what `--follow` and the
// server's live streams read. Reads the store, so events written by any process on the database are
// seen, and a subscriber that reconnects with the last id it saw misses nothing (SQLite: ids are
// assigned in commit order).

import type { Store } from '../store/index.js';

export interface FollowedEvent {
  id: number;
  runId: string;
  type: string;
  task?: string;
  data: unknown;
  createdAt: string;
}

/**
 * Yields events after `afterId` until `signal` aborts, polling the store every `pollMs` when none
 * are new. `runId` undefined: every run's.
 */
export async function* followEvents(store: Store, opts: { runId?: string; afterId: number; signal: AbortSignal; pollMs?: number }): AsyncGenerator<FollowedEvent> {
  let after = opts.afterId;
  const poll = opts.pollMs ?? 200;
  while (!opts.signal.aborted) {
    const rows = opts.runId === undefined ? await store.events.listAll({ afterId: after, limit: 500 }) : await store.events.list(opts.runId, { afterId: after, limit: 500 });
    for (const e of rows) {
      after = e.id;
      yield { id: e.id, runId: e.runId, type: e.type, ...(e.task !== undefined ? { task: e.task } : {}), data: e.data, createdAt: e.createdAt };
    }
    if (rows.length === 500) continue;
    await new Promise<void>((done) => {
      const timer = setTimeout(done, poll);
      opts.signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
    });
  }
}

export interface FollowRunOptions {
  /** Keep reading until the run has ended; without it, the events stored so far. */
  follow: boolean;
  /** Stops following (Ctrl-C): the generator returns the status it last read. */
  stop?: AbortSignal;
  pollMs?: number;
}

/**
 * One run's stored events from the first on (`squadron logs [-f]`, `inspect --follow`); with
 * `follow`, until the run ends (any status but running or queued, a run whose runner is gone counting
 * as interrupted). Returns the run's status as last read. The status is read before each page of
 * events, so an event written before the run ended is always yielded.
 */
export async function* followRun(store: Store, runId: string, opts: FollowRunOptions): AsyncGenerator<FollowedEvent, string> {
  const { shownRunStatus } = await import('../runtime/kernel/runStatus.js');
  const page = 500;
  let after = 0;
  for (;;) {
    const run = await store.runs.get(runId);
    const status = run === undefined ? 'unknown' : await shownRunStatus(store, runId, run.status);
    let rows;
    do {
      rows = await store.events.list(runId, { afterId: after, limit: page });
      for (const e of rows) {
        after = e.id;
        yield { id: e.id, runId: e.runId, type: e.type, ...(e.task !== undefined ? { task: e.task } : {}), data: e.data, createdAt: e.createdAt };
      }
    } while (rows.length === page);
    if (!opts.follow || (status !== 'running' && status !== 'queued') || opts.stop?.aborted) return status;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, opts.pollMs ?? 250);
      function done(): void {
        clearTimeout(timer);
        opts.stop?.removeEventListener('abort', done);
        resolve();
      }
      opts.stop?.addEventListener('abort', done, { once: true });
    });
  }
}
