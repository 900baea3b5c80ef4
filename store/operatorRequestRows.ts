// One reader of an operator_requests row for both backends (json columns restored from redaction).

import { OPERATOR_REQUEST_KINDS, OPERATOR_REQUEST_STATUSES, type OperatorRequestKind, type OperatorRequestStatus } from '../core/statuses.js';
import type { ColumnCodec } from './columns.js';
import { StoreError } from './errors.js';
import type { OperatorRequestRow } from './repos/operatorRequests.js';
import { parseJsonColumn, UnknownSchema } from './rowSchemas.js';
import { randomBytes } from 'node:crypto';

export function readOperatorRequestRow(codec: ColumnCodec, row: Record<string, unknown>): OperatorRequestRow {
  const id = String(row['id']);
  const kind = row['kind'];
  const status = row['status'];
  if (!(OPERATOR_REQUEST_KINDS as readonly unknown[]).includes(kind) || !(OPERATOR_REQUEST_STATUSES as readonly unknown[]).includes(status)) {
    throw new StoreError('CORRUPT_ROW', `unreadable operator_requests row ${id}: kind ${String(kind)}, status ${String(status)}`);
  }
  const json = (column: string): unknown => {
    const v = row[column];
    if (v === null || v === undefined) return undefined;
    return parseJsonColumn(codec, UnknownSchema, `operator_requests ${id} ${column}`, typeof v === 'string' ? v : JSON.stringify(v));
  };
  const out: OperatorRequestRow = {
    id,
    runId: String(row['run_id']),
    task: String(row['task']),
    agent: String(row['agent']),
    sessionId: String(row['session_id']),
    callId: String(row['call_id']),
    seq: Number(row['seq']),
    kind: kind as OperatorRequestKind,
    toolRef: String(row['tool_ref']),
    payload: json('payload_json'),
    status: status as OperatorRequestStatus,
    createdAt: time(row['created_at']),
  };
  if (row['item'] !== null && row['item'] !== undefined) out.item = Number(row['item']);
  const answer = json('answer_json');
  if (answer !== undefined) out.answer = answer;
  if (typeof row['reason'] === 'string') out.reason = codec.readText(row['reason']);
  if (typeof row['decided_by'] === 'string') out.decidedBy = row['decided_by'];
  if (row['decided_at'] !== null && row['decided_at'] !== undefined) out.decidedAt = time(row['decided_at']);
  return out;
}

function time(v: unknown): string {
  return v instanceof Date ? v.toISOString() : String(v);
}

/** `ap_…` for an approval, `q_…` for a question: short enough to type, random enough never to clash. */
export function newRequestId(kind: OperatorRequestKind): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  let out = kind === 'approval' ? 'ap_' : 'q_';
  for (const b of randomBytes(8)) out += alphabet[b % alphabet.length];
  return out;
}
