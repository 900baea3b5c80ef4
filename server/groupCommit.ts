// Writes of the HTTP thread that arrive in one turn of the event loop share one transaction (a group
// commit): under a burst of webhook deliveries, one BEGIN and one COMMIT, one turn of the database's
// write lock, serve the dozens of requests parsed in that turn, instead of one each. Each write runs
// in a savepoint of its own, so one that fails (a replayed signature) rolls back its own rows only;
// each caller's promise settles once the shared transaction is committed, so nothing is answered as
// stored before it is. Measured with bench/serve.mjs (the figures are in docs/commands/serve.md).

import type { RunStore } from '../api/index.js';

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Pending {
  work: (tx: RunStore) => Promise<unknown>;
  settle: (outcome: Outcome) => void;
}

export interface GroupCommit {
  /** Runs `work` in a savepoint of the turn's shared transaction; resolves once that transaction is committed. */
  write<T>(work: (tx: RunStore) => Promise<T>): Promise<T>;
}

export function groupCommit(store: RunStore): GroupCommit {
  let queue: Pending[] = [];

  const flush = async (): Promise<void> => {
    const batch = queue;
    queue = [];
    const outcomes: Outcome[] = [];
    try {
      await store.transaction(async (tx) => {
        for (const p of batch) {
          try {
            outcomes.push({ ok: true, value: await tx.transaction(p.work) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The shared transaction did not commit (the disk full, the database busy past its timeout):
      // nothing of the batch is stored, and every caller is told: with its own error when its write
      // failed (the one that met the full disk, say), else with the commit's.
      batch.forEach((p, i) => p.settle(outcomes[i]?.ok === false ? outcomes[i] : { ok: false, error }));
      return;
    }
    batch.forEach((p, i) => p.settle(outcomes[i]!));
  };

  return {
    write: <T>(work: (tx: RunStore) => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(() => void flush());
        queue.push({ work, settle: (o) => (o.ok ? resolve(o.value as T) : reject(o.error)) });
      }),
  };
}
