// Stored results on SQLite (the contract is in ../repos/storedResults.ts).

import type { StoredResultsRepo } from '../repos/storedResults.js';
import { decodePayload, encodePayload } from '../storedResultRows.js';
import type { RepoContext } from './context.js';

export function createStoredResultsRepo({ db, codec, now }: RepoContext): StoredResultsRepo {
  const insert = db.prepare(
    `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at)
     VALUES (?, ?, ?, ?, CASE WHEN EXISTS (SELECT 1 FROM stored_results WHERE run_id = ? AND handle = ? AND payload IS NOT NULL) THEN NULL ELSE ? END, ?)
     ON CONFLICT (session_id, handle) DO NOTHING`,
  );
  const share = db.prepare(
    `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at)
     SELECT ?, handle, run_id, bytes, NULL, ? FROM stored_results WHERE session_id = ? AND handle = ?
     ON CONFLICT (session_id, handle) DO NOTHING`,
  );
  const holds = db.prepare<[string, string], number>('SELECT 1 FROM stored_results WHERE session_id = ? AND handle = ?').pluck();
  const read = db.prepare<[string, string], { payload: string; bytes: number }>(
    `SELECT p.payload AS payload, p.bytes AS bytes FROM stored_results v
     JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
     WHERE v.session_id = ? AND v.handle = ?`,
  );
  const any = db.prepare<[string], number>('SELECT 1 FROM stored_results WHERE session_id = ? LIMIT 1').pluck();

  return {
    async put({ runId, sessionId, payload }) {
      const { stored, handle, bytes } = encodePayload(codec, payload);
      insert.run(sessionId, handle, runId, bytes, runId, handle, stored, now());
      return { handle, bytes };
    },
    async share(handle, from, to) {
      if (holds.get(from, handle) === undefined) return false;
      share.run(to, now(), from, handle);
      return true;
    },
    async read(sessionId, handle) {
      const row = read.get(sessionId, handle);
      return row === undefined ? undefined : { payload: decodePayload(codec, handle, row.payload), bytes: row.bytes };
    },
    async hasAny(sessionId) {
      return any.get(sessionId) !== undefined;
    },
  };
}
