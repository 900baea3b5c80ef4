// Stored results on PostgreSQL (the contract is in ../../repos/storedResults.ts). The payload goes
// into the run's first row for a handle; two sessions storing the same new payload at once may both
// write it (each statement sees the other's row only after commit) — harmless, reads take either.

import type { StoredResultsRepo } from '../../repos/storedResults.js';
import { encodePayload, payloadForm, quotedPayload } from '../../storedResultRows.js';
import type { PgRepoContext } from '../context.js';

export function createStoredResultsRepo({ sql, codec, now }: PgRepoContext): StoredResultsRepo {
  return {
    async put({ runId, sessionId, payload, quotes }) {
      const { stored, handle, bytes } = encodePayload(codec, payload);
      let answer: { id: number; partsJson: string } | undefined;
      if (quotes !== undefined) {
        const { rows } = await sql.query("SELECT id, parts_json FROM messages WHERE session_id = $1 AND role = 'assistant' ORDER BY seq DESC LIMIT 1", [quotes.sessionId]);
        const row = rows[0];
        if (row !== undefined) answer = { id: Number(row['id']), partsJson: String(row['parts_json']) };
      }
      const form = payloadForm(codec, payload, stored, quotes, answer);
      // The payload (and the answer it quotes by reference) goes into the run's first row for a handle.
      await sql.query(
        `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, quote_message, quote_at, created_at)
         SELECT $1, $2, $3, $4,
           CASE WHEN held THEN NULL ELSE $5 END, CASE WHEN held THEN NULL ELSE $6::bigint END, CASE WHEN held THEN NULL ELSE $7::integer END, $8
         FROM (SELECT EXISTS (SELECT 1 FROM stored_results WHERE run_id = $3 AND handle = $2 AND payload IS NOT NULL) AS held) AS h
         ON CONFLICT (session_id, handle) DO NOTHING`,
        [sessionId, handle, runId, bytes, form.stored, form.quote?.messageId ?? null, form.quote?.at ?? null, now()],
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
        `SELECT p.payload AS payload, p.bytes AS bytes, p.quote_at AS quote_at, m.parts_json AS quote_parts FROM stored_results v
         JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
         LEFT JOIN messages m ON m.id = p.quote_message
         WHERE v.session_id = $1 AND v.handle = $2 LIMIT 1`,
        [sessionId, handle],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      const quote = row['quote_at'] !== null && row['quote_parts'] !== null ? { at: Number(row['quote_at']), partsJson: String(row['quote_parts']) } : undefined;
      return { payload: quotedPayload(codec, handle, String(row['payload']), quote), bytes: Number(row['bytes']) };
    },
    async hasAny(sessionId) {
      const { rowCount } = await sql.query('SELECT 1 FROM stored_results WHERE session_id = $1 LIMIT 1', [sessionId]);
      return rowCount > 0;
    },
  };
}
