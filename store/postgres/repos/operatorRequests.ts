// Operator requests on PostgreSQL (the contract is in ../../repos/operatorRequests.ts).

import type { OperatorRequestsRepo } from '../../repos/operatorRequests.js';
import { newRequestId, readOperatorRequestRow } from '../../operatorRequestRows.js';
import type { PgRepoContext } from '../context.js';

export function createOperatorRequestsRepo({ sql, codec, now }: PgRepoContext): OperatorRequestsRepo {
  const read = (row: Record<string, unknown>) => readOperatorRequestRow(codec, row);
  const byCall = async (sessionId: string, callId: string, kind: string, seq: number) =>
    (await sql.query('SELECT * FROM operator_requests WHERE session_id = $1 AND call_id = $2 AND kind = $3 AND seq = $4', [sessionId, callId, kind, seq])).rows[0];
  return {
    async open(r) {
      const seq = r.seq ?? 0;
      await sql.query(
        `INSERT INTO operator_requests (id, run_id, task, item, agent, session_id, call_id, seq, kind, tool_ref, payload_json, status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12)
         ON CONFLICT (session_id, call_id, kind, seq) DO NOTHING`,
        [newRequestId(r.kind), r.runId, r.task, r.item ?? null, r.agent, r.sessionId, r.callId, seq, r.kind, r.toolRef, codec.json(r.payload), now()],
      );
      return read((await byCall(r.sessionId, r.callId, r.kind, seq))!);
    },
    async get(runId, id) {
      const { rows } = await sql.query('SELECT * FROM operator_requests WHERE run_id = $1 AND id = $2', [runId, id]);
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async forCall(sessionId, callId, kind, seq = 0) {
      const row = await byCall(sessionId, callId, kind, seq);
      return row === undefined ? undefined : read(row);
    },
    async list(runId, opts) {
      const { rows } = await sql.query(
        `SELECT * FROM operator_requests WHERE run_id = $1${opts?.pendingOnly ? " AND status = 'pending'" : ''} ORDER BY created_at, id`,
        [runId],
      );
      return rows.map(read);
    },
    async decide(runId, id, d) {
      const { rowCount } = await sql.query(
        `UPDATE operator_requests SET status = $1, answer_json = $2, reason = $3, decided_by = $4, decided_at = $5
         WHERE run_id = $6 AND id = $7 AND status = 'pending'`,
        [d.status, codec.jsonOrNull(d.answer), codec.textOrNull(d.reason), d.by, now(), runId, id],
      );
      return rowCount > 0;
    },
  };
}
