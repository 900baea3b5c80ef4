// Context views on PostgreSQL (the contract is in ../../repos/contextViews.ts). A session's views are
// written by the one process that holds its run, so the next seq is read in the insert itself; the
// primary key is the backstop.

import type { ContextViewsRepo } from '../../repos/contextViews.js';
import { readContextViewRow } from '../../contextViewRows.js';
import type { PgRepoContext } from '../context.js';

export function createContextViewsRepo({ sql, codec, now }: PgRepoContext): ContextViewsRepo {
  return {
    async record(sessionId, v) {
      const { rows } = await sql.query(
        `INSERT INTO context_views (session_id, seq, kind, after_seq, keep_from, head_json, input_tokens, dropped, created_at)
         SELECT $1::text, COALESCE(MAX(seq), 0) + 1, $2::text, $3::integer, $4::integer, $5::json, $6::bigint, $7::integer, $8::timestamptz
         FROM context_views WHERE session_id = $1::text
         RETURNING *`,
        [sessionId, v.kind, v.afterSeq, v.keepFrom, codec.json(v.head), v.inputTokens, v.dropped, now()],
      );
      return readContextViewRow(codec, rows[0]!);
    },
    async latest(sessionId) {
      const { rows } = await sql.query('SELECT * FROM context_views WHERE session_id = $1 ORDER BY seq DESC LIMIT 1', [sessionId]);
      return rows[0] === undefined ? undefined : readContextViewRow(codec, rows[0]);
    },
    async list(sessionId) {
      const { rows } = await sql.query('SELECT * FROM context_views WHERE session_id = $1 ORDER BY seq', [sessionId]);
      return rows.map((row) => readContextViewRow(codec, row));
    },
  };
}
