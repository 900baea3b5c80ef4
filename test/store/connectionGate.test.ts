// SQLite connections of one process to one file, and a transaction SQLite itself rolls back.
// better-sqlite3 waits for a lock synchronously (busy_timeout), blocking the thread: a second
// connection's write made while the first holds a transaction across an await must queue behind it
// (one gate per file), not wait out the timeout for a commit its own thread cannot reach. And a
// call inside a transaction that SQLite already rolled back (SQLITE_FULL) must not commit alone.

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
});
