// Stored results (the contract is in ../repos/storedResults.ts). The payload (and the answer it
// quotes by reference) goes into the run's first row for a handle; on PostgreSQL two sessions storing
// the same new payload at once may both write it (each statement sees the other's row only after
// commit) — harmless, reads take either.

import type { StoredResultsRepo } from '../repos/storedResults.js';
import { encodePayload, payloadForm, quotedPayload, type AnswerRow } from '../storedResultRows.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const LATEST_ANSWER = sql<[string], { id: number | string; parts_json: string }>(
  "SELECT id, parts_json FROM messages WHERE session_id = $1 AND role = 'assistant' ORDER BY seq DESC LIMIT 1",
);
// `WHERE true` lets SQLite tell the upsert's ON CONFLICT from a join's ON.
const INSERT = sql<[session: string, handle: string, runId: string, bytes: number, payload: string | null, message: number | null, at: number | null, now: string]>(
  `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, quote_message, quote_at, created_at)
   SELECT $1, $2, $3, $4,
     CASE WHEN held THEN NULL ELSE $5 END, CASE WHEN held THEN NULL ELSE $6::bigint END, CASE WHEN held THEN NULL ELSE $7::integer END, $8
   FROM (SELECT EXISTS (SELECT 1 FROM stored_results WHERE run_id = $3 AND handle = $2 AND payload IS NOT NULL) AS held) AS h
   WHERE true
   ON CONFLICT (session_id, handle) DO NOTHING`,
);
const HOLDS = sql<[session: string, handle: string]>('SELECT 1 AS held FROM stored_results WHERE session_id = $1 AND handle = $2');
const SHARE = sql<[to: string, now: string, from: string, handle: string]>(
  `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at)
   SELECT $1, handle, run_id, bytes, NULL, $2 FROM stored_results WHERE session_id = $3 AND handle = $4
   ON CONFLICT (session_id, handle) DO NOTHING`,
);
type Read = { payload: string; bytes: number | string; quote_at: number | string | null; quote_parts: string | null };
const READ = sql<[session: string, handle: string], Read>(
  `SELECT p.payload AS payload, p.bytes AS bytes, p.quote_at AS quote_at, m.parts_json AS quote_parts FROM stored_results v
   JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
   LEFT JOIN messages m ON m.id = p.quote_message
   WHERE v.session_id = $1 AND v.handle = $2 LIMIT 1`,
);
/** READ on a SQLite schema before 0015 (opened read-only, read as it is): no quote columns. */
const READ_UNQUOTED = sql<[session: string, handle: string], Read>(
  `SELECT p.payload AS payload, p.bytes AS bytes, NULL AS quote_at, NULL AS quote_parts FROM stored_results v
   JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
   WHERE v.session_id = $1 AND v.handle = $2 LIMIT 1`,
);
const ANY = sql<[string]>('SELECT 1 AS found FROM stored_results WHERE session_id = $1 LIMIT 1');

export function createStoredResultsRepo({ db, codec, now }: QueryContext): StoredResultsRepo {
  // A database of a schema before 0015 opened read-only has no quote columns; nothing is put into it.
  const quoting = db.hasColumn('stored_results', 'quote_at');
  const read = quoting ? READ : READ_UNQUOTED;
  if (quoting) db.prepare(INSERT);
  db.prepare(LATEST_ANSWER, HOLDS, SHARE, read, ANY);

  return {
    async put({ runId, sessionId, payload, quotes }) {
      const { stored, handle, bytes } = encodePayload(codec, payload);
      const latest = quotes === undefined ? undefined : await db.get(LATEST_ANSWER, [quotes.sessionId]);
      const answer: AnswerRow | undefined = latest === undefined ? undefined : { id: Number(latest.id), partsJson: latest.parts_json };
      const form = payloadForm(codec, payload, stored, quotes, answer);
      await db.run(INSERT, [sessionId, handle, runId, bytes, form.stored, form.quote?.messageId ?? null, form.quote?.at ?? null, now()]);
      return { handle, bytes };
    },
    async share(handle, from, to) {
      if ((await db.get(HOLDS, [from, handle])) === undefined) return false;
      await db.run(SHARE, [to, now(), from, handle]);
      return true;
    },
    async read(sessionId, handle) {
      const row = await db.get(read, [sessionId, handle]);
      if (row === undefined) return undefined;
      const quote = row.quote_at !== null && row.quote_parts !== null ? { at: Number(row.quote_at), partsJson: row.quote_parts } : undefined;
      return { payload: quotedPayload(codec, handle, row.payload, quote), bytes: Number(row.bytes) };
    },
    async hasAny(sessionId) {
      return (await db.get(ANY, [sessionId])) !== undefined;
    },
  };
}
