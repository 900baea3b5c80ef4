// The server's group commit on a real SQLite store: writes made in one turn of the event loop share
// one transaction; one that fails rolls back its own rows only; each caller learns its outcome once
// the shared transaction is committed (its rows readable from another connection by then); a
// shared transaction that cannot begin fails every write of its turn, and none is stored.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openRunStore, type RunStore } from '../../api/index.js';
import { groupCommit } from '../../server/groupCommit.js';
import { tempDir } from '../support/cli.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

const opened: Array<{ close: () => unknown }> = [];
afterEach(async () => {
  for (const s of opened.splice(0).reverse()) await s.close();
});

async function setUp(): Promise<{ store: RunStore; begun: () => number; reader: BetterSqlite3.Database; path: string }> {
  const path = join(tempDir('squadron-group-commit-'), 'squadron.db');
  const real = await openRunStore(path);
  opened.push(real);
  let begun = 0;
  // The real store, its transactions counted.
  const store = Object.create(real, { transaction: { value: <T>(fn: (tx: RunStore) => Promise<T>) => ((begun += 1), real.transaction(fn)) } }) as RunStore;
  const reader = new Database(path, { readonly: true });
  opened.push(reader);
  return { store, begun: () => begun, reader, path };
}

const delivery = (n: number) => ({ runId: `run_${String(n).padStart(16, '0')}`, path: 'hook', mission: 'm', inputs: {}, createdAt: new Date().toISOString() });
const accepted = (reader: BetterSqlite3.Database): string[] => (reader.prepare('SELECT run_id FROM webhook_runs ORDER BY run_id').pluck().all() as string[]);

describe('group commit', () => {
  it('writes of one turn share one transaction; a failing one rolls back its rows only; each settles after the commit', async () => {
    const { store, begun, reader } = await setUp();
    const writes = groupCommit(store);
    const seenAtSettle: string[][] = [];
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) =>
        writes
          .write(async (tx) => {
            await tx.webhookDeliveries.accept(delivery(n));
            if (n === 3) throw new Error('refused after its insert');
            return n;
          })
          .finally(() => seenAtSettle.push(accepted(reader))),
      ),
    );
    expect(begun()).toBe(1);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 2, 'refused after its insert', 4, 5]);
    const stored = [1, 2, 4, 5].map((n) => delivery(n).runId);
    expect(accepted(reader)).toEqual(stored);
    // Another connection saw every row of the turn as soon as the first caller was told.
    expect(seenAtSettle[0]).toEqual(stored);

    // A later turn gets a transaction of its own.
    await writes.write((tx) => tx.webhookDeliveries.accept(delivery(6)));
    expect(begun()).toBe(2);
  });

  it('a shared transaction that cannot begin fails every write of its turn, and none is stored', async () => {
    const { store, reader, path } = await setUp();
    const writes = groupCommit(store);
    const other = new Database(path);
    opened.push(other);
    other.exec('BEGIN EXCLUSIVE'); // held past the busy timeout
    const results = await Promise.allSettled([1, 2].map((n) => writes.write((tx) => tx.webhookDeliveries.accept(delivery(n)))));
    other.exec('ROLLBACK');
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(results.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([expect.stringMatching(/locked|busy/i), expect.stringMatching(/locked|busy/i)]);
    expect(accepted(reader)).toEqual([]);
  }, 20_000);
});
