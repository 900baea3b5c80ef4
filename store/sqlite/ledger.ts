// The tool-call ledger: `started` is written before a tool executes and the result after, so resume
// can replay completed results instead of re-running side effects, and knows which calls were cut off.

import type { ToolResult } from '../../core/toolResults.js';
import { StoreError } from '../errors.js';
import { toLedgerRow } from '../rowReaders.js';
import { parseRow, RawLedger } from '../rowSchemas.js';
import type { LedgerRow } from '../rows.js';
import type { RepoContext } from './context.js';
import type { LedgerRepo } from '../repos/ledger.js';

export function createLedgerRepo({ db, codec, now }: RepoContext): LedgerRepo {
  const insert = db.prepare(
    `INSERT INTO tool_calls (session_id, call_id, tool_ref, api_name, input_json, idempotent, status, started_at)
     VALUES (?, ?, ?, ?, ?, ?, 'started', ?)
     ON CONFLICT (session_id, call_id) DO UPDATE SET status = 'started', started_at = excluded.started_at
     WHERE tool_calls.status = 'pending_approval'`,
  );
  const insertPending = db.prepare(
    `INSERT INTO tool_calls (session_id, call_id, tool_ref, api_name, input_json, idempotent, status, started_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending_approval', ?) ON CONFLICT (session_id, call_id) DO NOTHING`,
  );
  const complete = db.prepare(
    `UPDATE tool_calls SET status = 'completed', result_json = ?, is_error = ?, finished_at = ?
     WHERE session_id = ? AND call_id = ? AND status IN ('started', 'pending_approval')`,
  );
  const reopen = db.prepare("UPDATE tool_calls SET status = 'pending_approval' WHERE session_id = ? AND call_id = ? AND status = 'started'");
  const exists = db.prepare<[string, string], number>('SELECT 1 FROM tool_calls WHERE session_id = ? AND call_id = ?').pluck();
  const byCall = db.prepare('SELECT * FROM tool_calls WHERE session_id = ? AND call_id = ?');
  const bySession = db.prepare('SELECT * FROM tool_calls WHERE session_id = ? ORDER BY id');

  const read = (row: unknown): LedgerRow => toLedgerRow(codec, parseRow(RawLedger, 'tool_calls', row));

  return {
    async recordStarted(c) {
      insert.run(c.sessionId, c.callId, c.toolRef, c.apiName, codec.json(c.input), c.idempotent ? 1 : 0, now());
    },
    async recordPending(c) {
      insertPending.run(c.sessionId, c.callId, c.toolRef, c.apiName, codec.json(c.input), c.idempotent ? 1 : 0, now());
    },
    async reopen(sessionId, callId) {
      reopen.run(sessionId, callId);
    },
    async recordCompleted(sessionId, callId, result) {
      const changes = complete.run(codec.json(result), result.isError ? 1 : 0, now(), sessionId, callId).changes;
      if (changes === 0 && exists.get(sessionId, callId) === undefined) {
        throw new StoreError('NOT_FOUND', `tool call ${callId} of session ${sessionId} was completed without being started`);
      }
    },
    async get(sessionId, callId) {
      const row = byCall.get(sessionId, callId);
      return row === undefined ? undefined : read(row);
    },
    async listForSession(sessionId) {
      return bySession.all(sessionId).map(read);
    },
  };
}

