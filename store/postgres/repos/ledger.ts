// The tool-call ledger on PostgreSQL: `started` is written before a tool executes and the result
// after; the first start and the first result win, as on SQLite.

import { StoreError } from '../../errors.js';
import { toLedgerRow } from '../../rowReaders.js';
import { parseRow, RawLedger } from '../../rowSchemas.js';
import type { LedgerRow } from '../../rows.js';
import type { LedgerRepo } from '../../repos/ledger.js';
import { flags, type PgRepoContext } from '../context.js';

export function createLedgerRepo({ sql, codec, now }: PgRepoContext): LedgerRepo {
  const read = (row: Record<string, unknown>): LedgerRow =>
    toLedgerRow(codec, parseRow(RawLedger, 'tool_calls', flags(row, 'idempotent', 'is_error')));

  return {
    async recordStarted(c) {
      await sql.query(
        `INSERT INTO tool_calls (session_id, call_id, tool_ref, api_name, input_json, idempotent, status, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'started', $7)
         ON CONFLICT (session_id, call_id) DO UPDATE SET status = 'started', started_at = excluded.started_at
         WHERE tool_calls.status = 'pending_approval'`,
        [c.sessionId, c.callId, c.toolRef, c.apiName, codec.json(c.input), c.idempotent, now()],
      );
    },
    async recordPending(c) {
      await sql.query(
        `INSERT INTO tool_calls (session_id, call_id, tool_ref, api_name, input_json, idempotent, status, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending_approval', $7) ON CONFLICT (session_id, call_id) DO NOTHING`,
        [c.sessionId, c.callId, c.toolRef, c.apiName, codec.json(c.input), c.idempotent, now()],
      );
    },
    async reopen(sessionId, callId) {
      await sql.query("UPDATE tool_calls SET status = 'pending_approval' WHERE session_id = $1 AND call_id = $2 AND status = 'started'", [sessionId, callId]);
    },
    async recordCompleted(sessionId, callId, result) {
      const { rowCount } = await sql.query(
        `UPDATE tool_calls SET status = 'completed', result_json = $1, is_error = $2, finished_at = $3
         WHERE session_id = $4 AND call_id = $5 AND status IN ('started', 'pending_approval')`,
        [codec.json(result), result.isError, now(), sessionId, callId],
      );
      if (rowCount > 0) return;
      const { rows } = await sql.query('SELECT 1 FROM tool_calls WHERE session_id = $1 AND call_id = $2', [sessionId, callId]);
      if (rows.length === 0) {
        throw new StoreError('NOT_FOUND', `tool call ${callId} of session ${sessionId} was completed without being started`);
      }
    },
    async get(sessionId, callId) {
      const { rows } = await sql.query('SELECT * FROM tool_calls WHERE session_id = $1 AND call_id = $2', [sessionId, callId]);
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async listForSession(sessionId) {
      const { rows } = await sql.query('SELECT * FROM tool_calls WHERE session_id = $1 ORDER BY id', [sessionId]);
      return rows.map(read);
    },
  };
}
