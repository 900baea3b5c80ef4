// SQLite connections of one process to one file, and a transaction SQLite itself rolls back.
// better-sqlite3 waits for a lock synchronously (busy_timeout), blocking the thread: a second
// connection's write made while the first holds a transaction across an await must queue behind it
// (one gate per file), not wait out the timeout for a commit its own thread cannot reach. And a
// call inside a transaction that SQLite already rolled back (SQLITE_FULL) must not commit alone.
// A transaction meeting another connection's write lock waits for it from the event loop instead.

import { join } from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/index.js';
import { tempDir } from './fixtures.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

function latch(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

async function runNamed(store: Store, mission: string, inputs: Record<string, unknown> = {}): Promise<string> {
  return (await store.runs.create({ mission, configPath: '/p/m.hcl', inputs })).id;
}

/** Opens a store and returns it with its better-sqlite3 connection (seen as it prepares). */
function openWithConnection(path: string): { store: Store; db: BetterSqlite3.Database } {
  const prepare = Database.prototype.prepare;
  let db: BetterSqlite3.Database | undefined;
  Database.prototype.prepare = function seen(this: BetterSqlite3.Database, source: string) {
    db = this;
    return prepare.call(this, source);
  } as typeof prepare;
  try {
    const store = openStore(path);
    return { store, db: db! };
  } finally {
    Database.prototype.prepare = prepare;
  }
}

describe('SQLite connections of one process', () => {
  it("queue a second connection's write behind the first's open transaction instead of failing SQLITE_BUSY", async () => {
    const path = join(tempDir(), 'store.db');
    const first = openStore(path);
    const second = openStore(path);
    try {
      const held = latch();
      const inside = latch();
      const tx = first.transaction(async (t) => {
        await runNamed(t, 'inside');
        inside.open();
        await held.wait; // the other connection writes now, while this transaction is open
      });
      await inside.wait;
      const other = runNamed(second, 'outside');
      held.open();
      await tx;
      await other;
      expect((await second.runs.list()).map((r) => r.mission).sort()).toEqual(['inside', 'outside']);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('refuse a call inside a transaction that SQLite rolled back itself (as it may on SQLITE_FULL) with its error: nothing of it commits', async () => {
    const path = join(tempDir(), 'store.db');
    const { store, db } = openWithConnection(path);
    try {
      let full: unknown;
      let after: unknown;
      await expect(
        store.transaction(async (tx) => {
          await runNamed(tx, 'before');
          // SQLite ends the whole transaction, as it may on a full disk: a trigger's RAISE(ROLLBACK).
          db.exec("CREATE TEMP TRIGGER roll_back BEFORE INSERT ON runs WHEN NEW.mission = 'failing' BEGIN SELECT RAISE(ROLLBACK, 'the disk is full'); END");
          // Not awaited before the next call is made, as a durable step's event writes are not.
          const failing = runNamed(tx, 'failing').catch((e: unknown) => void (full = e));
          const next = runNamed(tx, 'after').catch((e: unknown) => void (after = e));
          await Promise.all([failing, next]);
          throw full;
        }),
      ).rejects.toThrow('the disk is full');
      expect(after).toBe(full);
      expect(await store.runs.list()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("waits for another connection's write lock without blocking the thread, and begins once it is free", async () => {
    const path = join(tempDir(), 'store.db');
    const store = openStore(path);
    const other = new Database(path);
    try {
      other.pragma('journal_mode = WAL');
      other.exec('BEGIN IMMEDIATE'); // another writer (a run thread, another process) holds the lock
      let ticks = 0;
      const ticking = setInterval(() => (ticks += 1), 5);
      const tx = store.transaction((t) => runNamed(t, 'after the other writer'));
      // The thread goes on while the transaction waits: timers fire (better-sqlite3's own wait would block it).
      while (ticks < 4) await new Promise((resolve) => setTimeout(resolve, 5));
      other.exec('COMMIT');
      const id = await tx;
      clearInterval(ticking);
      expect((await store.runs.get(id))?.mission).toBe('after the other writer');
    } finally {
      other.close();
      await store.close();
    }
  });
});
