// PostgreSQL only: a connection the server drops in the middle of a transaction fails that step
// (rolled back, nothing half-written) instead of crashing the process, and the store goes on with a
// fresh connection.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../store/postgres/index.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';

let server: TestPostgres;

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

describe('a PostgreSQL connection lost mid-transaction', () => {
  it('fails the step, keeps nothing of it, and the store goes on', async () => {
    const url = await server.createDatabase();
    const store = await openPostgresStore(url, { env: {} });
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    try {
      const runId = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
      let appended!: () => void;
      const inside = new Promise<void>((resolve) => (appended = resolve));
      let resume!: () => void;
      const gate = new Promise<void>((resolve) => (resume = resolve));
      const step = store.transaction(async (tx) => {
        await tx.events.append({ runId, type: 'half', data: 1 });
        appended();
        await gate;
        await tx.events.append({ runId, type: 'other half', data: 2 });
      });
      await inside;
      const { rows } = await admin.query<{ terminated: boolean }>(
        "SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction'",
        [new URL(url).pathname.slice(1)],
      );
      expect(rows.some((r) => r.terminated)).toBe(true);
      resume();
      await expect(step).rejects.toThrow();
      expect(await store.events.list(runId)).toEqual([]);
      await store.events.append({ runId, type: 'after', data: 3 });
      expect((await store.events.list(runId)).map((e) => e.type)).toEqual(['after']);
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
