// Context views (the contract is in ../repos/contextViews.ts). A session's views are written by the
// one process that holds its run, so the next seq is read in the insert itself; the primary key is
// the backstop.

import { readContextViewRow } from '../contextViewRows.js';
import type { ContextViewsRepo } from '../repos/contextViews.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const INSERT = sql<[session: string, kind: string, afterSeq: number, keepFrom: number, head: string, inputTokens: number, dropped: number, at: string]>(
  `INSERT INTO context_views (session_id, seq, kind, after_seq, keep_from, head_json, input_tokens, dropped, created_at)
   SELECT $1::text, COALESCE(MAX(seq), 0) + 1, $2::text, $3::integer, $4::integer, $5::json, $6::bigint, $7::integer, $8::timestamptz
   FROM context_views WHERE session_id = $1::text
   RETURNING *`,
);
const LATEST = sql<[string]>('SELECT * FROM context_views WHERE session_id = $1 ORDER BY seq DESC LIMIT 1');
const ALL = sql<[string]>('SELECT * FROM context_views WHERE session_id = $1 ORDER BY seq');

export function createContextViewsRepo({ db, codec, now }: QueryContext): ContextViewsRepo {
  db.prepare(INSERT, LATEST, ALL);
  const read = (row: Record<string, unknown>) => readContextViewRow(codec, row);
  return {
    async record(sessionId, v) {
      const row = await db.get(INSERT, [sessionId, v.kind, v.afterSeq, v.keepFrom, codec.json(v.head), v.inputTokens, v.dropped, now()]);
      if (row === undefined) throw new Error(`no row was returned for a context view of session ${sessionId}`);
      return read(row);
    },
    async latest(sessionId) {
      const row = await db.get(LATEST, [sessionId]);
      return row === undefined ? undefined : read(row);
    },
    async list(sessionId) {
      return (await db.all(ALL, [sessionId])).map(read);
    },
  };
}
