// A table's columns are declared once in TypeScript: its zod row schema (store/rowSchemas.ts). On
// every backend the migrated table has each column its schema declares, and the INSERTs derived from
// a schema (store/sql/insert.ts) write every column of the table but the ones the database fills
// (ids, defaults) — so a column added to both migrations and to the schema is written with no other
// SQL to edit, and the writer that must supply its value fails to compile until it does.

import { describe, expect, it } from 'vitest';
import { INSERT_ROUTE } from '../../../store/queries/routes.js';
import { INSERT_TURN } from '../../../store/queries/turns.js';
import { RawEvent, RawItem, RawLease, RawLedger, RawMessage, RawRoute, RawRun, RawSession, RawTask, RawTurn } from '../../../store/rowSchemas.js';
import type { Store } from '../../../store/index.js';
import { seedSession, useBackends, type Backend } from './backends.js';

const SCHEMAS = {
  runs: RawRun,
  tasks: RawTask,
  task_items: RawItem,
  sessions: RawSession,
  messages: RawMessage,
  tool_calls: RawLedger,
  events: RawEvent,
  route_decisions: RawRoute,
  leases: RawLease,
  model_turns: RawTurn,
} as const;

async function columnsOf(backend: Backend, store: Store, table: string): Promise<string[]> {
  const rows =
    backend.name === 'sqlite'
      ? await backend.exec(store, 'SELECT name FROM pragma_table_info(?)', table)
      : await backend.exec(store, "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?", table);
  return rows.map((r) => String(r['name'])).sort();
}

/** The column list of `INSERT INTO t (a, b, …)`. */
function insertColumns(text: string): string[] {
  const list = /^INSERT INTO \w+ \(([^)]*)\)/.exec(text)?.[1];
  if (list === undefined) throw new Error(`not an INSERT: ${text}`);
  return list.split(',').map((c) => c.trim()).sort();
}

describe.each(useBackends())('$name columns', (backend) => {
  it('has every column each row schema declares', async () => {
    const store = await backend.fresh();
    for (const [table, schema] of Object.entries(SCHEMAS)) {
      const columns = await columnsOf(backend, store, table);
      expect(columns.length, table).toBeGreaterThan(0);
      for (const key of Object.keys(schema().shape)) expect(columns, `${table}.${key}`).toContain(key);
    }
  });

  it('writes, through the INSERTs derived from a schema, every column of the table but those the database fills', async () => {
    const store = await backend.fresh();
    const filled = { model_turns: ['id', 'inherited'], route_decisions: [] as string[] };
    for (const [table, insert] of [['model_turns', INSERT_TURN], ['route_decisions', INSERT_ROUTE]] as const) {
      const columns = (await columnsOf(backend, store, table)).filter((c) => !filled[table].includes(c));
      expect(insertColumns(insert.statement.compileFor(backend.name).text), table).toEqual(columns);
    }
    // And every column they write holds the value given (none left NULL).
    const { runId, sessionId } = await seedSession(store);
    await store.turns.record({ runId, task: 'research', sessionId, turn: 1, model: 'm', usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 }, costUsd: 0.5, durationMs: 12.4, stopReason: 'end_turn' });
    await store.routes.record(runId, 'research', 'report', 'route');
    const [turn] = await backend.exec(store, 'SELECT * FROM model_turns WHERE run_id = ?', runId);
    for (const column of insertColumns(INSERT_TURN.statement.source)) expect(turn?.[column], `model_turns.${column}`).not.toBeNull();
    expect({ ...turn, input_tokens: Number(turn?.['input_tokens']), duration_ms: Number(turn?.['duration_ms']) }).toMatchObject({ session_id: sessionId, input_tokens: 10, duration_ms: 12, stop_reason: 'end_turn' });
    const [route] = await backend.exec(store, 'SELECT * FROM route_decisions WHERE run_id = ?', runId);
    for (const column of insertColumns(INSERT_ROUTE.statement.source)) expect(route?.[column], `route_decisions.${column}`).not.toBeNull();
    expect(route).toMatchObject({ from_task: 'research', to_task: 'report', kind: 'route' });
  });
});
