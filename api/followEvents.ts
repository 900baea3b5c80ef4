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
