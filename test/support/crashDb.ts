// What a crash scenario reads back from the run's SQLite file (directly, read-only, the way a user's
// tools would): the run id, the tool-call ledger with its results, and the event stream.

import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface LedgerEntry {
  task: string;
  agent: string;
  sessionId: string;
  callId: string;
  apiName: string;
  input: unknown;
  idempotent: boolean;
  status: 'started' | 'completed';
  result?: { content: { type: string; text?: string }[]; isError: boolean };
}

export interface StoredEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/** Opens the file read-only for one read, and closes it whatever the read does. */
function readOnce<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function count(dbPath: string, sql: string, runId: string): number {
  return readOnce(dbPath, (db) => (db.prepare(sql).get(runId) as { n: number }).n);
}

export function latestRunId(dbPath: string): string | undefined {
  if (!existsSync(dbPath)) return undefined;
  return readOnce(dbPath, (db) => (db.prepare('SELECT id FROM runs ORDER BY started_at DESC, rowid DESC LIMIT 1').get() as { id: string } | undefined)?.id);
}

export function maxEventId(dbPath: string, runId: string): number {
  return count(dbPath, 'SELECT COALESCE(MAX(id), 0) AS n FROM events WHERE run_id = ?', runId);
}

/** Model turns the run has stored (one per model reply made durable). */
export function countTurns(dbPath: string, runId: string): number {
  return count(dbPath, 'SELECT COUNT(*) AS n FROM model_turns WHERE run_id = ?', runId);
}

export function readLedger(dbPath: string, runId: string): LedgerEntry[] {
  return readOnce(dbPath, (db) => {
    const rows = db
      .prepare(
        `SELECT s.task_name, s.agent, t.session_id, t.call_id, t.api_name, t.input_json, t.idempotent, t.status, t.result_json
         FROM tool_calls t JOIN sessions s ON s.id = t.session_id WHERE s.run_id = ? ORDER BY t.id`,
      )
      .all(runId) as { task_name: string; agent: string; session_id: string; call_id: string; api_name: string; input_json: string; idempotent: number; status: 'started' | 'completed'; result_json: string | null }[];
    return rows.map((r) => {
      const entry: LedgerEntry = {
        task: r.task_name,
        agent: r.agent,
        sessionId: r.session_id,
        callId: r.call_id,
        apiName: r.api_name,
        input: JSON.parse(r.input_json) as unknown,
        idempotent: r.idempotent === 1,
        status: r.status,
      };
      if (r.result_json !== null) entry.result = JSON.parse(r.result_json) as LedgerEntry['result'];
      return entry;
    });
  });
}

export function readEvents(dbPath: string, runId: string): StoredEvent[] {
  return readOnce(dbPath, (db) => {
    const rows = db.prepare('SELECT id, type, data_json FROM events WHERE run_id = ? ORDER BY id').all(runId) as { id: number; type: string; data_json: string }[];
    return rows.map((r) => ({ id: r.id, type: r.type, data: JSON.parse(r.data_json) as Record<string, unknown> }));
  });
}
