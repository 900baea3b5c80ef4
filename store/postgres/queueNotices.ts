// Notices of queued units of work on PostgreSQL (LISTEN/NOTIFY): every statement that queues a unit
// (enqueue, requeue, a release back to the queue) also runs pg_notify on WORK_CHANNEL, delivered when
// its transaction commits. One connection per open store listens; an idle runner waits for the next
// notice instead of polling every 100 ms, and still polls slowly, for a notice lost with a dropped
// connection and for units whose holder is gone (no notice marks a heartbeat going stale).

import type pg from 'pg';
import type { QueueSignal } from '../repos/units.js';

export const WORK_CHANNEL = 'squadron_work';

export interface QueueNotices extends QueueSignal {
  /** Stops listening and gives the connection back (before the pool ends). */
  close(): Promise<void>;
}

export function queueNotices(pool: pg.Pool): QueueNotices {
  let count = 0;
  let listening: Promise<pg.PoolClient> | undefined;
  let closed = false;
  const waiters = new Set<() => void>();
  const wakeAll = (): void => {
    for (const wake of [...waiters]) wake();
  };
  const listen = (): Promise<pg.PoolClient> =>
    (listening ??= (async () => {
      const client = await pool.connect();
      client.on('notification', (n) => {
        if (n.channel !== WORK_CHANNEL) return;
        count += 1;
        wakeAll();
      });
      // A dropped connection: listen again on the next wait; meanwhile waiters fall back to polling.
      client.on('error', () => {
        listening = undefined;
        client.release(true);
        wakeAll();
      });
      try {
        await client.query(`LISTEN ${WORK_CHANNEL}`);
      } catch (error) {
        client.release(true);
        throw error;
      }
      return client;
    })().catch((error: unknown) => {
      listening = undefined;
      throw error;
    }));

  return {
    get seen() {
      return count;
    },
    async ready() {
      if (closed) return false;
      return listen().then(
        () => true,
        () => false,
      );
    },
    async wait(seen, ms, signal) {
      if (count > seen || signal.aborted) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
        signal.addEventListener('abort', done, { once: true });
      });
    },
    async close() {
      closed = true;
      const client = await listening?.catch(() => undefined);
      listening = undefined;
      wakeAll();
      if (client) {
        await client.query(`UNLISTEN ${WORK_CHANNEL}`).catch(() => undefined);
        client.release();
      }
    },
  };
}
