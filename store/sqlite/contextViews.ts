// Context views on SQLite (the contract is in ../repos/contextViews.ts).

import type { ContextViewsRepo } from '../repos/contextViews.js';
import { readContextViewRow } from '../contextViewRows.js';
import type { RepoContext } from './context.js';

export function createContextViewsRepo({ db, codec, now }: RepoContext): ContextViewsRepo {
  const insert = db.prepare(
    `INSERT INTO context_views (session_id, seq, kind, after_seq, keep_from, head_json, input_tokens, dropped, created_at)
     SELECT @session, COALESCE(MAX(seq), 0) + 1, @kind, @afterSeq, @keepFrom, @head, @inputTokens, @dropped, @createdAt
     FROM context_views WHERE session_id = @session
     RETURNING *`,
  );
  const latest = db.prepare('SELECT * FROM context_views WHERE session_id = ? ORDER BY seq DESC LIMIT 1');
  const all = db.prepare('SELECT * FROM context_views WHERE session_id = ? ORDER BY seq');
  const read = (row: unknown) => readContextViewRow(codec, row as Record<string, unknown>);
  return {
    async record(sessionId, v) {
      const row = insert.get({
        session: sessionId,
        kind: v.kind,
        afterSeq: v.afterSeq,
        keepFrom: v.keepFrom,
        head: codec.json(v.head),
        inputTokens: v.inputTokens,
        dropped: v.dropped,
        createdAt: now(),
      });
      return read(row);
    },
    async latest(sessionId) {
      const row = latest.get(sessionId);
      return row === undefined ? undefined : read(row);
    },
    async list(sessionId) {
      return all.all(sessionId).map(read);
    },
  };
}
