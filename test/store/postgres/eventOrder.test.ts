// PostgreSQL only (SQLite has one writer at a time, so ids commit in order there): a reader following
// a run's events by id never passes an event that a transaction still holds, because a run's events
// are numbered and committed one writer after another.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../store/index.js';
import { openPostgresStore } from '../../../store/postgres/index.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';

let server: TestPostgres;

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

/** Resolves once some session of the database waits for a lock (polled; generous bound). */
async function someoneWaitsForALock(url: string, timeoutMs = 60_000): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const start = Date.now();
    for (;;) {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_locks WHERE NOT granted');
      if (Number(rows[0]?.n) > 0) return;
      if (Date.now() - start > timeoutMs) throw new Error('no session waited for a lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

describe('following a run’s events on PostgreSQL', () => {
  it('never skips an event committed after a later writer’s', async () => {
    const url = await server.createDatabase();
    const stores: Store[] = await Promise.all([openPostgresStore(url, { env: {} }), openPostgresStore(url, { env: {} }), openPostgresStore(url, { env: {} })]);
    const [slow, fast, follower] = stores as [Store, Store, Store];
    try {
      const runId = (await slow.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
      let appended!: () => void;
      const inside = new Promise<void>((resolve) => (appended = resolve));
      let commit!: () => void;
      const gate = new Promise<void>((resolve) => (commit = resolve));
      const first = slow.transaction(async (tx) => {
        await tx.events.append({ runId, type: 'first', data: 1 });
        appended();
        await gate;
      });
      await inside;
      // The second writer either commits at once (its id above the first's, still uncommitted) or
      // waits for the first: whichever happens, the follower reads now.
      const second = fast.events.appendMany([{ runId, type: 'second', data: 2 }]);
      await Promise.race([second, someoneWaitsForALock(url)]);
      const seen = (await follower.events.list(runId)).map((e) => e);
      commit();
      await Promise.all([first, second]);
      const lastId = seen.at(-1)?.id ?? 0;
      seen.push(...(await follower.events.list(runId, { afterId: lastId })));
      expect(seen.map((e) => e.type)).toEqual(['first', 'second']);
    } finally {
      for (const store of stores) await store.close();
    }
  });
});

describe('following every run’s events on PostgreSQL (/v1/events)', () => {
  it('never skips an event of one run committed after a later event of another run', async () => {
    const url = await server.createDatabase();
    const stores: Store[] = await Promise.all([openPostgresStore(url, { env: {} }), openPostgresStore(url, { env: {} }), openPostgresStore(url, { env: {} })]);
    const [slow, fast, follower] = stores as [Store, Store, Store];
    try {
      const runA = (await slow.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
      const runB = (await fast.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
      let appended!: () => void;
      const inside = new Promise<void>((resolve) => (appended = resolve));
      let commit!: () => void;
      const gate = new Promise<void>((resolve) => (commit = resolve));
      const first = slow.transaction(async (tx) => {
        await tx.events.append({ runId: runA, type: 'first', data: 1 });
        appended();
        await gate;
      });
      await inside;
      // Another run's event: no lock of run A stands in its way, so it commits at once with a higher id.
      await fast.events.appendMany([{ runId: runB, type: 'second', data: 2 }]);
      // The follower of every run reads now, while the lower id is still uncommitted.
      const reading = follower.events.listAll({ afterId: 0, limit: 500 });
      await Promise.race([reading, someoneWaitsForALock(url)]);
      commit();
      await first;
      const seen = await reading;
      const lastId = seen.at(-1)?.id ?? 0;
      seen.push(...(await follower.events.listAll({ afterId: lastId, limit: 500 })));
      expect(seen.map((e) => e.type)).toEqual(['first', 'second']);
    } finally {
      for (const store of stores) await store.close();
    }
  });
});
