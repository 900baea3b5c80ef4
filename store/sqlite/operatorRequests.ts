// Operator requests on SQLite (the contract is in ../repos/operatorRequests.ts).

import type { OperatorRequestsRepo } from '../repos/operatorRequests.js';
import { newRequestId, readOperatorRequestRow } from '../operatorRequestRows.js';
import type { RepoContext } from './context.js';

export function createOperatorRequestsRepo({ db, codec, now }: RepoContext): OperatorRequestsRepo {
  const insert = db.prepare(
    `INSERT INTO operator_requests (id, run_id, task, item, agent, session_id, call_id, seq, kind, tool_ref, payload_json, status, created_at)
     VALUES (@id, @runId, @task, @item, @agent, @sessionId, @callId, @seq, @kind, @toolRef, @payload, 'pending', @createdAt)
     ON CONFLICT (session_id, call_id, kind, seq) DO NOTHING`,
  );
  const byCall = db.prepare('SELECT * FROM operator_requests WHERE session_id = ? AND call_id = ? AND kind = ? AND seq = ?');
  const byId = db.prepare('SELECT * FROM operator_requests WHERE run_id = ? AND id = ?');
  const all = db.prepare('SELECT * FROM operator_requests WHERE run_id = ? ORDER BY created_at, id');
  const pending = db.prepare("SELECT * FROM operator_requests WHERE run_id = ? AND status = 'pending' ORDER BY created_at, id");
  const decide = db.prepare(
    `UPDATE operator_requests SET status = @status, answer_json = @answer, reason = @reason, decided_by = @by, decided_at = @at
     WHERE run_id = @runId AND id = @id AND status = 'pending'`,
  );
  const read = (row: unknown) => readOperatorRequestRow(codec, row as Record<string, unknown>);
  return {
    async open(r) {
      const seq = r.seq ?? 0;
      insert.run({
        id: newRequestId(r.kind),
        runId: r.runId,
        task: r.task,
        item: r.item ?? null,
        agent: r.agent,
        sessionId: r.sessionId,
        callId: r.callId,
        seq,
        kind: r.kind,
        toolRef: r.toolRef,
        payload: codec.json(r.payload),
        createdAt: now(),
      });
      return read(byCall.get(r.sessionId, r.callId, r.kind, seq));
    },
    async get(runId, id) {
      const row = byId.get(runId, id);
      return row === undefined ? undefined : read(row);
    },
    async forCall(sessionId, callId, kind, seq = 0) {
      const row = byCall.get(sessionId, callId, kind, seq);
      return row === undefined ? undefined : read(row);
    },
    async list(runId, opts) {
      return (opts?.pendingOnly ? pending : all).all(runId).map(read);
    },
    async decide(runId, id, d) {
      const changes = decide.run({
        runId,
        id,
        status: d.status,
        answer: codec.jsonOrNull(d.answer),
        reason: codec.textOrNull(d.reason),
        by: d.by,
        at: now(),
      }).changes;
      return changes > 0;
    },
  };
}
