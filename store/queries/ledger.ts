// The tool-call ledger: `started` is written before a tool executes and the result after, so resume
// can replay completed results instead of re-running side effects, and knows which calls were cut
// off. The first start and the first result win.

import { StoreError } from '../errors.js';
import { toLedgerRow } from '../rowReaders.js';
import { parseRow, RawLedger } from '../rowSchemas.js';
import type { LedgerRow } from '../rows.js';
import type { LedgerRepo } from '../repos/ledger.js';
import { flags } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Start = [session: string, call: string, toolRef: string, apiName: string, input: string, idempotent: boolean | number, at: string];

const START = sql<Start>(
  `INSERT INTO tool_calls (session_id, call_id, tool_ref, api_name, input_json, idempotent, status, started_at)
   VALUES ($1, $2, $3, $4, $5, $6, 'started', $7)
   ON CONFLICT (session_id, call_id) DO UPDATE SET status = 'started', started_at = excluded.started_at
   WHERE tool_calls.status = 'pending_approval'`,
);
const PENDING = sql<Start>(
  `INSERT INTO tool_calls (session_id, call_id, tool_ref, api_name, input_json, idempotent, status, started_at)
   VALUES ($1, $2, $3, $4, $5, $6, 'pending_approval', $7) ON CONFLICT (session_id, call_id) DO NOTHING`,
);
const COMPLETE = sql<[result: string, isError: boolean | number, at: string, session: string, call: string]>(
  `UPDATE tool_calls SET status = 'completed', result_json = $1, is_error = $2, finished_at = $3
   WHERE session_id = $4 AND call_id = $5 AND status IN ('started', 'pending_approval')`,
);
const REOPEN = sql<[string, string]>("UPDATE tool_calls SET status = 'pending_approval' WHERE session_id = $1 AND call_id = $2 AND status = 'started'");
const EXISTS = sql<[string, string]>('SELECT 1 AS found FROM tool_calls WHERE session_id = $1 AND call_id = $2');
const BY_CALL = sql<[string, string]>('SELECT * FROM tool_calls WHERE session_id = $1 AND call_id = $2');
const BY_SESSION = sql<[string]>('SELECT * FROM tool_calls WHERE session_id = $1 ORDER BY id');

export function createLedgerRepo({ db, codec, now }: QueryContext): LedgerRepo {
  db.prepare(START, PENDING, COMPLETE, REOPEN, EXISTS, BY_CALL, BY_SESSION);
  const read = (row: Record<string, unknown>): LedgerRow => toLedgerRow(codec, parseRow(RawLedger, 'tool_calls', flags(row, 'idempotent', 'is_error')));
  const { bool } = db.dialect;

  return {
    async recordStarted(c) {
      await db.run(START, [c.sessionId, c.callId, c.toolRef, c.apiName, codec.json(c.input), bool(c.idempotent), now()]);
    },
    async recordPending(c) {
      await db.run(PENDING, [c.sessionId, c.callId, c.toolRef, c.apiName, codec.json(c.input), bool(c.idempotent), now()]);
    },
    async reopen(sessionId, callId) {
      await db.run(REOPEN, [sessionId, callId]);
    },
    async recordCompleted(sessionId, callId, result) {
      const changed = await db.run(COMPLETE, [codec.json(result), bool(result.isError), now(), sessionId, callId]);
      if (changed === 0 && (await db.get(EXISTS, [sessionId, callId])) === undefined) {
        throw new StoreError('NOT_FOUND', `tool call ${callId} of session ${sessionId} was completed without being started`);
      }
    },
    async get(sessionId, callId) {
      const row = await db.get(BY_CALL, [sessionId, callId]);
      return row === undefined ? undefined : read(row);
    },
    async listForSession(sessionId) {
      return (await db.all(BY_SESSION, [sessionId])).map(read);
    },
  };
}
