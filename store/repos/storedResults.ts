// Stored results: large tool results kept whole and read by handle. Content-addressed: the handle is
// taken from the SHA-256 of the payload as stored (redacted), so a payload is stored once per run and
// gets the same handle whenever it comes back (a re-run after resume). Each session that may read a
// handle has a row; only the run's first row for a handle carries the payload.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { StoredPayload } from '../../core/storedResults.js';
import { StoreError } from '../errors.js';
import type { RepoContext } from './context.js';

export interface StoredResultsRepo {
  /** Stores the payload for the session (a no-op when the session already holds it); returns its handle. */
  put(r: { runId: string; sessionId: string; payload: StoredPayload }): { handle: string; bytes: number };
  /** Lets session `to` read a handle `from` holds; false when `from` holds no such handle. */
  share(handle: string, from: string, to: string): boolean;
  /** The payload, when the session may read the handle. */
  read(sessionId: string, handle: string): { payload: StoredPayload; bytes: number } | undefined;
  /** Whether the session holds at least one handle. */
  hasAny(sessionId: string): boolean;
}

const PayloadSchema = z.object({
  format: z.enum(['json', 'text']),
  text: z.string(),
  images: z.array(z.object({ mediaType: z.string(), data: z.string() })),
  structured: z.unknown().optional(),
  resources: z.array(z.looseObject({ kind: z.enum(['resource', 'resource_link', 'audio']) })).optional(),
});

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
    put({ runId, sessionId, payload }) {
      const stored = codec.json(payload);
      const handle = `res_${createHash('sha256').update(stored).digest('hex').slice(0, 16)}`;
      const bytes = Buffer.byteLength(stored, 'utf8');
      insert.run(sessionId, handle, runId, bytes, runId, handle, stored, now());
      return { handle, bytes };
    },
    share(handle, from, to) {
      if (holds.get(from, handle) === undefined) return false;
      share.run(to, now(), from, handle);
      return true;
    },
    read(sessionId, handle) {
      const row = read.get(sessionId, handle);
      if (row === undefined) return undefined;
      const parsed = PayloadSchema.safeParse(codec.readJson(row.payload));
      if (!parsed.success) throw new StoreError('CORRUPT_ROW', `unreadable stored_results row ${handle}: ${z.prettifyError(parsed.error)}`);
      return { payload: parsed.data, bytes: row.bytes };
    },
    hasAny(sessionId) {
      return any.get(sessionId) !== undefined;
    },
  };
}
