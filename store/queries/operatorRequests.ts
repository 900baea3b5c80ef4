// Operator requests: approvals of tool calls and questions (the contract is in ../repos/operatorRequests.ts).

import { newRequestId, readOperatorRequestRow } from '../operatorRequestRows.js';
import type { OperatorRequestsRepo } from '../repos/operatorRequests.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const INSERT = sql<
  [id: string, runId: string, task: string, item: number | null, agent: string, session: string, call: string, seq: number, kind: string, toolRef: string | null, payload: string, at: string]
>(
  `INSERT INTO operator_requests (id, run_id, task, item, agent, session_id, call_id, seq, kind, tool_ref, payload_json, status, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12)
   ON CONFLICT (session_id, call_id, kind, seq) DO NOTHING`,
);
const BY_CALL = sql<[session: string, call: string, kind: string, seq: number]>('SELECT * FROM operator_requests WHERE session_id = $1 AND call_id = $2 AND kind = $3 AND seq = $4');
const BY_ID = sql<[runId: string, id: string]>('SELECT * FROM operator_requests WHERE run_id = $1 AND id = $2');
const ALL = sql<[runId: string]>('SELECT * FROM operator_requests WHERE run_id = $1 ORDER BY created_at, id');
const PENDING = sql<[runId: string]>("SELECT * FROM operator_requests WHERE run_id = $1 AND status = 'pending' ORDER BY created_at, id");
const PENDING_ALL = sql<[]>("SELECT * FROM operator_requests WHERE status = 'pending' ORDER BY created_at, id");
const DECIDE = sql<[status: string, answer: string | null, reason: string | null, by: string, at: string, runId: string, id: string]>(
  `UPDATE operator_requests SET status = $1, answer_json = $2, reason = $3, decided_by = $4, decided_at = $5
   WHERE run_id = $6 AND id = $7 AND status = 'pending'`,
);

export function createOperatorRequestsRepo({ db, codec, now }: QueryContext): OperatorRequestsRepo {
  db.prepare(INSERT, BY_CALL, BY_ID, ALL, PENDING, PENDING_ALL, DECIDE);
  const read = (row: Record<string, unknown>) => readOperatorRequestRow(codec, row);
  return {
    async open(r) {
      const seq = r.seq ?? 0;
      await db.run(INSERT, [newRequestId(r.kind), r.runId, r.task, r.item ?? null, r.agent, r.sessionId, r.callId, seq, r.kind, r.toolRef, codec.json(r.payload), now()]);
      const row = await db.get(BY_CALL, [r.sessionId, r.callId, r.kind, seq]);
      if (row === undefined) throw new Error(`operator request of call ${r.callId} was not stored`);
      return read(row);
    },
    async get(runId, id) {
      const row = await db.get(BY_ID, [runId, id]);
      return row === undefined ? undefined : read(row);
    },
    async forCall(sessionId, callId, kind, seq = 0) {
      const row = await db.get(BY_CALL, [sessionId, callId, kind, seq]);
      return row === undefined ? undefined : read(row);
    },
    async list(runId, opts) {
      return (await db.all(opts?.pendingOnly ? PENDING : ALL, [runId])).map(read);
    },
    async pending() {
      return (await db.all(PENDING_ALL, [])).map(read);
    },
    async decide(runId, id, d) {
      const changed = await db.run(DECIDE, [d.status, codec.jsonOrNull(d.answer), codec.textOrNull(d.reason), d.by, now(), runId, id]);
      return changed > 0;
    },
  };
}
