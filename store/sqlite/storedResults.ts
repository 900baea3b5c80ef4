// Stored results on SQLite (the contract is in ../repos/storedResults.ts).

import type { StoredResultsRepo } from '../repos/storedResults.js';
import { encodePayload, payloadForm, quotedPayload, type AnswerRow } from '../storedResultRows.js';
import type { RepoContext } from './context.js';

export function createStoredResultsRepo({ db, codec, now }: RepoContext): StoredResultsRepo {
  // A database of a schema before 0015 opened read-only (read as it is) has no quote columns; nothing is put into it.
  const quoting = new Set(db.prepare<[], string>("SELECT name FROM pragma_table_info('stored_results')").pluck().all()).has('quote_at');
  // The payload (and the answer it quotes by reference) goes into the run's first row for a handle.
  const insert = db.prepare(
    `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, ${quoting ? 'quote_message, quote_at, ' : ''}created_at)
     SELECT @session, @handle, @run, @bytes, CASE WHEN held THEN NULL ELSE @payload END, ${quoting ? 'CASE WHEN held THEN NULL ELSE @message END, CASE WHEN held THEN NULL ELSE @at END, ' : ''}@now
     FROM (SELECT EXISTS (SELECT 1 FROM stored_results WHERE run_id = @run AND handle = @handle AND payload IS NOT NULL) AS held)
     WHERE true
     ON CONFLICT (session_id, handle) DO NOTHING`,
  );
  const latestAnswer = db.prepare<[string], { id: number; parts_json: string }>(
    "SELECT id, parts_json FROM messages WHERE session_id = ? AND role = 'assistant' ORDER BY seq DESC LIMIT 1",
  );
  const share = db.prepare(
    `INSERT INTO stored_results (session_id, handle, run_id, bytes, payload, created_at)
     SELECT ?, handle, run_id, bytes, NULL, ? FROM stored_results WHERE session_id = ? AND handle = ?
     ON CONFLICT (session_id, handle) DO NOTHING`,
  );
  const holds = db.prepare<[string, string], number>('SELECT 1 FROM stored_results WHERE session_id = ? AND handle = ?').pluck();
  const read = db.prepare<[string, string], { payload: string; bytes: number; quote_at: number | null; quote_parts: string | null }>(
    quoting
      ? `SELECT p.payload AS payload, p.bytes AS bytes, p.quote_at AS quote_at, m.parts_json AS quote_parts FROM stored_results v
         JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
         LEFT JOIN messages m ON m.id = p.quote_message
         WHERE v.session_id = ? AND v.handle = ?`
      : `SELECT p.payload AS payload, p.bytes AS bytes, NULL AS quote_at, NULL AS quote_parts FROM stored_results v
         JOIN stored_results p ON p.run_id = v.run_id AND p.handle = v.handle AND p.payload IS NOT NULL
         WHERE v.session_id = ? AND v.handle = ?`,
  );
  const any = db.prepare<[string], number>('SELECT 1 FROM stored_results WHERE session_id = ? LIMIT 1').pluck();

  return {
    async put({ runId, sessionId, payload, quotes }) {
      const { stored, handle, bytes } = encodePayload(codec, payload);
      const latest = quotes === undefined || !quoting ? undefined : latestAnswer.get(quotes.sessionId);
      const answer: AnswerRow | undefined = latest === undefined ? undefined : { id: latest.id, partsJson: latest.parts_json };
      const form = payloadForm(codec, payload, stored, quotes, answer);
      insert.run({ session: sessionId, handle, run: runId, bytes, payload: form.stored, ...(quoting ? { message: form.quote?.messageId ?? null, at: form.quote?.at ?? null } : {}), now: now() });
      return { handle, bytes };
    },
    async share(handle, from, to) {
      if (holds.get(from, handle) === undefined) return false;
      share.run(to, now(), from, handle);
      return true;
    },
    async read(sessionId, handle) {
      const row = read.get(sessionId, handle);
      if (row === undefined) return undefined;
      const quote = row.quote_at !== null && row.quote_parts !== null ? { at: row.quote_at, partsJson: row.quote_parts } : undefined;
      return { payload: quotedPayload(codec, handle, row.payload, quote), bytes: row.bytes };
    },
    async hasAny(sessionId) {
      return any.get(sessionId) !== undefined;
    },
  };
}
