// Stored results on PostgreSQL (the contract is in ../../repos/storedResults.ts). The payload goes
// into the run's first row for a handle; two sessions storing the same new payload at once may both
// write it (each statement sees the other's row only after commit) — harmless, reads take either.

import type { StoredResultsRepo } from '../../repos/storedResults.js';
import { decodePayload, encodePayload } from '../../storedResultRows.js';
import type { PgRepoContext } from '../context.js';

export function createStoredResultsRepo({ sql, codec, now }: PgRepoContext): StoredResultsRepo {
  return {
    async put({ runId, sessionId, payload }) {
      const { stored, handle, bytes } = encodePayload(codec, payload);
      await sql.query(
        `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at)
         VALUES ($1, $2, $3, $4,
           CASE WHEN EXISTS (SELECT 1 FROM stored_results WHERE run_id = $3 AND handle = $2 AND payload IS NOT NULL) THEN NULL ELSE $5 END, $6)
         ON CONFLICT (session_id, handle) DO NOTHING`,
        [sessionId, handle, runId, bytes, stored, now()],
      );
      return { handle, bytes };
    },
    async share(handle, from, to) {
      const { rowCount } = await sql.query('SELECT 1 FROM stored_results WHERE session_id = $1 AND handle = $2', [from, handle]);
      if (rowCount === 0) return false;
      await sql.query(
        `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at)
         SELECT $1, handle, run_id, bytes, NULL, $2 FROM stored_results WHERE session_id = $3 AND handle = $4
         ON CONFLICT (session_id, handle) DO NOTHING`,
        [to, now(), from, handle],
      );
      return true;
    },
    async read(sessionId, handle) {
      const { rows } = await sql.query(
        `SELECT p.payload AS payload, p.bytes AS bytes FROM stored_results v
         JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
         WHERE v.session_id = $1 AND v.handle = $2 LIMIT 1`,
        [sessionId, handle],
      );
      const row = rows[0];
      return row === undefined ? undefined : { payload: decodePayload(codec, handle, String(row['payload'])), bytes: Number(row['bytes']) };
    },
    async hasAny(sessionId) {
      const { rowCount } = await sql.query('SELECT 1 FROM stored_results WHERE session_id = $1 LIMIT 1', [sessionId]);
      return rowCount > 0;
    },
  };
}
