// Raw rows → the typed rows of rows.ts: JSON columns restored (redaction) and parsed, NULLs turned
// into absent fields, 0/1 into booleans.

import type { Part } from '../core/messages.js';
import type { ColumnCodec } from './columns.js';
import { PLACEHOLDER_START } from './redact.js';
import { messageChecksum } from './rowChecksum.js';
import type { EventRow, ItemRow, LeaseRow, LedgerRow, MessageHead, MessageRow, RouteRow, RunRow, RunSummary, SessionRow, TaskRow, UsageTotals } from './rows.js';
import {
  InputsSchema,
  ConfigChangesSchema,
  parseJsonColumn,
  parseRow,
  readJsonColumn,
  RawMessage,
  RunConfigSchema,
  RunVariablesSchema,
  RunBudgetSchema,
  WorkspaceIdentitySchema,
  ForkPointSchema,
  PartsSchema,
  ToolResultSchema,
  UnknownSchema,
  type Parsed,
  type RawEvent,
  type RawItem,
  type RawLease,
  type RawLedger,
  type RawRoute,
  type RawRun,
  type RawRunSummary,
  type RawSession,
  type RawTask,
  type RawTotals,
} from './rowSchemas.js';

function opt(value: string | null): string | undefined {
  return value ?? undefined;
}

export function toRunRow(codec: ColumnCodec, r: Parsed<typeof RawRun>): RunRow {
  return {
    id: r.id,
    mission: r.mission,
    configPath: r.config_path,
    status: r.status,
    inputs: parseJsonColumn(codec, InputsSchema, `runs ${r.id} inputs_json`, r.inputs_json),
    options: parseJsonColumn(codec, InputsSchema, `runs ${r.id} options_json`, r.options_json),
    startedAt: r.started_at,
    finishedAt: opt(r.finished_at),
    error: codec.readTextOrUndefined(r.error),
    config: r.config_json === null ? undefined : parseJsonColumn(codec, RunConfigSchema, `runs ${r.id} config_json`, r.config_json),
    variables: r.variables_json === null ? undefined : parseJsonColumn(codec, RunVariablesSchema, `runs ${r.id} variables_json`, r.variables_json),
    configChanges: parseJsonColumn(codec, ConfigChangesSchema, `runs ${r.id} config_changes_json`, r.config_changes_json),
    budget: r.budget_json === null ? undefined : parseJsonColumn(codec, RunBudgetSchema, `runs ${r.id} budget_json`, r.budget_json),
    workspace: r.workspace_json === null || r.workspace_json === undefined ? undefined : parseJsonColumn(codec, WorkspaceIdentitySchema, `runs ${r.id} workspace_json`, r.workspace_json),
    parentRunId: r.parent_run_id ?? undefined,
    fork: r.fork_json == null ? undefined : parseJsonColumn(codec, ForkPointSchema, `runs ${r.id} fork_json`, r.fork_json),
  };
}

export function toRunSummary(codec: ColumnCodec, r: Parsed<typeof RawRunSummary>): RunSummary {
  return {
    ...toRunRow(codec, r),
    totals: toTotals(r),
    tasks: { total: r.tasks_total, completed: r.tasks_completed, failed: r.tasks_failed },
  };
}

export function toTotals(r: Parsed<typeof RawTotals>): UsageTotals {
  return {
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    cacheReadTokens: r.cache_read_tokens,
    cacheWriteTokens: r.cache_write_tokens,
    costUsd: r.cost_usd,
    turns: r.turns,
  };
}

export function toTaskRow(codec: ColumnCodec, r: Parsed<typeof RawTask>): TaskRow {
  return {
    id: r.id,
    runId: r.run_id,
    name: r.name,
    status: r.status,
    startedAt: opt(r.started_at),
    finishedAt: opt(r.finished_at),
    summary: codec.readTextOrUndefined(r.summary),
    output: r.output_json === null ? undefined : parseJsonColumn(codec, UnknownSchema, `tasks ${r.id} output_json`, r.output_json),
    route: opt(r.route),
    error: codec.readTextOrUndefined(r.error),
    attempt: r.attempt,
  };
}

export function toItemRow(codec: ColumnCodec, r: Parsed<typeof RawItem>): ItemRow {
  return {
    runId: r.run_id,
    task: r.task,
    index: r.idx,
    status: r.status,
    attempt: r.attempt,
    startedAt: opt(r.started_at),
    finishedAt: opt(r.finished_at),
    summary: codec.readTextOrUndefined(r.summary),
    output: r.output_json === null ? undefined : parseJsonColumn(codec, UnknownSchema, `task_items ${r.run_id}/${r.task}[${r.idx}] output_json`, r.output_json),
    error: codec.readTextOrUndefined(r.error),
  };
}

export function toSessionRow(codec: ColumnCodec, r: Parsed<typeof RawSession>): SessionRow {
  return {
    id: r.id,
    runId: r.run_id,
    task: r.task_name,
    agent: r.agent,
    role: r.role,
    model: r.model,
    status: r.status,
    systemPrompt: codec.readText(r.system_prompt),
    tools: parseJsonColumn(codec, UnknownSchema, `sessions ${r.id} tools_json`, r.tools_json),
    skills: parseJsonColumn(codec, UnknownSchema, `sessions ${r.id} skills_json`, r.skills_json),
    answer: codec.readTextOrUndefined(r.answer),
    answerDelivered: r.answer_delivered === 1,
    startedAt: r.started_at,
    finishedAt: opt(r.finished_at),
  };
}

/** A message row's head columns as the database returns them (types held by the table's constraints). */
export function readMessageHead(row: unknown): MessageHead {
  const r = row as { id: number; seq: number; role: 'user' | 'assistant'; turn: number; kind: string | null; call_id: string | null; parts_bytes?: number | null };
  const head: MessageHead = { id: r.id, seq: r.seq, role: r.role, turn: r.turn };
  if (r.kind !== null) head.kind = r.kind;
  if (r.call_id !== null) head.callId = r.call_id;
  if (typeof r.parts_bytes === 'number') head.partsBytes = r.parts_bytes;
  return head;
}

/**
 * A message row as SQLite returns it. When its checksum proves it is the row this store wrote (and
 * validated as typed parts), its parts are neither validated again nor parsed now: they are restored
 * and parsed the first time something reads them, once (a resume that only looks at the end of a
 * long conversation, or at its instructions, never pays for the rest). The other columns' types are
 * enforced by the database itself (STRICT table, CHECK on role). Any other row (no checksum, written
 * before 0003, or edited since) is validated in full at once, with the same errors.
 */
export function readMessageRow(codec: ColumnCodec, row: unknown): MessageRow {
  const r = row as Parsed<typeof RawMessage> & { checksum?: number | null };
  if (typeof r.checksum === 'number' && typeof r.parts_json === 'string' && r.checksum === messageChecksum(r.role, r.kind, r.call_id, r.parts_json)) {
    const stored = r.parts_json;
    const read = messageRow(r, () => readJsonColumn(codec, partsWhere(r), stored) as Part[]);
    storedTexts.set(read, stored);
    return read;
  }
  const valid = parseRow(RawMessage, 'messages', row);
  const parts = parseJsonColumn(codec, PartsSchema, partsWhere(valid), valid.parts_json);
  return messageRow(valid, () => parts);
}

/** The stored text of each row read back as this store wrote it (its checksum matches), sized only when asked. */
const storedTexts = new WeakMap<MessageRow, string>();

/**
 * UTF-8 bytes of the parts' own JSON, from the text this store writes for them (JSON.stringify of
 * the redacted parts): the text's size when it holds no placeholder to restore, else undefined. The
 * appends store it as parts_bytes (0014) and heads read it back.
 */
export function partsJsonBytes(stored: string): number | undefined {
  return stored.includes(PLACEHOLDER_START) ? undefined : Buffer.byteLength(stored);
}

/**
 * UTF-8 bytes of `JSON.stringify(row.parts)`, known without parsing them, for a row read back as
 * this store wrote it (its checksum matches) with no redacted secret to restore; undefined for any
 * other row.
 */
export function storedPartsBytes(row: MessageRow): number | undefined {
  const stored = storedTexts.get(row);
  return stored === undefined ? undefined : partsJsonBytes(stored);
}

function partsWhere(r: { id: number }): string {
  return `messages ${r.id} parts_json`;
}

function messageRow(r: Parsed<typeof RawMessage>, readParts: () => Part[]): MessageRow {
  let parts: Part[] | undefined;
  // Dropped once the parts are read: it holds the stored text, which a long conversation would
  // otherwise keep twice over (as text and as parts) for as long as its messages are held.
  let read: (() => Part[]) | undefined = readParts;
  // An accessor in the literal keeps the field's place (and its enumerability) for JSON output.
  return {
    id: r.id,
    sessionId: r.session_id,
    seq: r.seq,
    role: r.role,
    get parts(): Part[] {
      if (parts === undefined) {
        parts = read!();
        read = undefined;
      }
      return parts;
    },
    set parts(value: Part[]) {
      parts = value;
      read = undefined;
    },
    turn: r.turn,
    kind: opt(r.kind),
    callId: opt(r.call_id),
    createdAt: r.created_at,
  };
}

export function toLedgerRow(codec: ColumnCodec, r: Parsed<typeof RawLedger>): LedgerRow {
  const where = `tool_calls ${r.session_id}/${r.call_id}`;
  return {
    id: r.id,
    sessionId: r.session_id,
    callId: r.call_id,
    toolRef: r.tool_ref,
    apiName: r.api_name,
    input: parseJsonColumn(codec, UnknownSchema, `${where} input_json`, r.input_json),
    idempotent: r.idempotent === 1,
    status: r.status,
    result: r.result_json === null ? undefined : parseJsonColumn(codec, ToolResultSchema, `${where} result_json`, r.result_json),
    startedAt: r.started_at,
    finishedAt: opt(r.finished_at),
  };
}

export function toEventRow(codec: ColumnCodec, r: Parsed<typeof RawEvent>): EventRow {
  return {
    id: r.id,
    runId: r.run_id,
    type: r.type,
    task: opt(r.task_name),
    sessionId: opt(r.session_id),
    data: parseJsonColumn(codec, UnknownSchema, `events ${r.id} data_json`, r.data_json),
    createdAt: r.created_at,
  };
}

export function toRouteRow(r: Parsed<typeof RawRoute>): RouteRow {
  return { runId: r.run_id, from: r.from_task, to: r.to_task, kind: r.kind, createdAt: r.created_at };
}

export function toLeaseRow(r: Parsed<typeof RawLease>): LeaseRow {
  return {
    runId: r.run_id,
    owner: r.owner,
    pid: r.pid,
    host: r.host,
    acquiredAt: r.acquired_at,
    heartbeatAt: r.heartbeat_at,
  };
}
