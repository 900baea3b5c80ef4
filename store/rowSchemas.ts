// zod schemas for what the store reads back: raw SQLite rows (snake_case, NULLs, 0/1 flags) and the
// JSON payloads inside them (conversation parts, tool results). A row that fails is reported as
// CORRUPT_ROW: a resumed run must not act on a row it misreads. Each schema is built on first use
// (lazySchema): building them all at import cost `runs` and `inspect` start-up for schemas they never
// use, and a message row its checksum proves needs none (see rowChecksum.ts).

import { z } from 'zod';
import type { Part, ToolResultContent } from '../core/messages.js';
import type { ToolResult } from '../core/toolResults.js';
import type { ColumnCodec } from './columns.js';
import { StoreError } from './errors.js';
import { ITEM_STATUSES, LEDGER_STATUSES, RUN_STATUSES, SESSION_STATUSES, TASK_STATUSES } from '../core/statuses.js';

/** A schema built when first asked for, then kept. */
export type LazySchema<S extends z.ZodType> = () => S;

function lazySchema<S extends z.ZodType>(build: () => S): LazySchema<S> {
  let built: S | undefined;
  return () => (built ??= build());
}

/** What a lazy schema yields. */
export type Parsed<L extends LazySchema<z.ZodType>> = z.output<ReturnType<L>>;

// ---- JSON payload schemas. Loose objects keep fields a newer contract adds (e.g. provider ids on
// thinking parts) instead of silently dropping them on the way through the store.

const ToolResultContentSchema = lazySchema(() => z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), mediaType: z.string(), data: z.string() }),
]) satisfies z.ZodType<ToolResultContent>);

export const PartSchema = lazySchema(() => z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string(), thoughtSignature: z.string().optional() }),
  z.looseObject({
    type: z.literal('thinking'),
    text: z.string(),
    signature: z.string().optional(),
    redactedData: z.string().optional(),
    thoughtSignature: z.string().optional(),
    reasoningItem: z.record(z.string(), z.unknown()).optional(),
  }),
  z.looseObject({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    malformedInput: z.string().optional(),
    thoughtSignature: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('tool_result'),
    toolUseId: z.string(),
    content: z.array(ToolResultContentSchema()),
    isError: z.boolean(),
  }),
  z.looseObject({ type: z.literal('image'), mediaType: z.string(), data: z.string() }),
]) satisfies z.ZodType<Part>);

export const PartsSchema = lazySchema(() => z.array(PartSchema()));

const ToolResultResourceSchema = lazySchema(() => z.looseObject({
  kind: z.enum(['resource', 'resource_link', 'audio']),
  uri: z.string().optional(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
}));

export const ToolResultSchema = lazySchema(() => z.looseObject({
  content: z.array(ToolResultContentSchema()),
  isError: z.boolean(),
  structured: z.unknown().optional(),
  resources: z.array(ToolResultResourceSchema()).optional(),
  mocked: z.literal(true).optional(),
}) satisfies z.ZodType<ToolResult>);

export const InputsSchema = lazySchema(() => z.record(z.string(), z.unknown()));

export const RunConfigSchema = lazySchema(() => z.object({ files: z.record(z.string(), z.string()) }));
export const RunVariablesSchema = lazySchema(() => z.object({ values: z.record(z.string(), z.string()), secrets: z.array(z.string()) }));
const Limits = z.object({ tokens: z.number().optional(), dollars: z.number().optional(), duration: z.number().optional() });
export const RunBudgetSchema = lazySchema(() =>
  z.object({ limits: z.record(z.string(), Limits), elapsed: z.record(z.string(), z.number()), since: z.string().optional() }),
);
export const WorkspaceIdentitySchema = lazySchema(() => z.object({ dev: z.string(), ino: z.string(), born: z.string() }));
export const ForkPointSchema = lazySchema(() =>
  z.object({ task: z.string(), turn: z.number().int().optional(), changes: z.array(z.string()), copied: z.array(z.string()) }),
);
export const ConfigChangesSchema = lazySchema(() => z.array(z.object({ at: z.string(), changes: z.array(z.string()) })));

// ---- Raw rows as SQLite returns them (snake_case, NULLs, 0/1 booleans).

const text = z.string();
const nullableText = z.string().nullable();
const int = z.number().int();
const flag = z.union([z.literal(0), z.literal(1)]);

export const RawRun = lazySchema(() => z.object({
  id: text,
  mission: text,
  config_path: text,
  status: z.enum(RUN_STATUSES),
  inputs_json: text,
  options_json: text,
  started_at: text,
  finished_at: nullableText,
  error: nullableText,
  config_json: nullableText,
  variables_json: nullableText,
  config_changes_json: text,
  budget_json: nullableText,
  // 0015; absent from a database of an older schema opened read-only.
  workspace_json: nullableText.optional(),
  parent_run_id: z.string().nullish(),
  fork_json: z.string().nullish(),
}));

export const RawRunSummary = lazySchema(() => RawRun().extend({
  input_tokens: int,
  output_tokens: int,
  cache_read_tokens: int,
  cache_write_tokens: int,
  cost_usd: z.number(),
  turns: int,
  tasks_total: int,
  tasks_completed: int,
  tasks_failed: int,
}));

export const RawTask = lazySchema(() => z.object({
  id: text,
  run_id: text,
  name: text,
  status: z.enum(TASK_STATUSES),
  started_at: nullableText,
  finished_at: nullableText,
  summary: nullableText,
  output_json: nullableText,
  route: nullableText,
  error: nullableText,
  attempt: int,
}));

export const RawItem = lazySchema(() => z.object({
  run_id: text,
  task: text,
  idx: int,
  status: z.enum(ITEM_STATUSES),
  attempt: int,
  started_at: nullableText,
  finished_at: nullableText,
  summary: nullableText,
  output_json: nullableText,
  error: nullableText,
}));

export const RawSession = lazySchema(() => z.object({
  id: text,
  run_id: text,
  task_name: text,
  agent: text,
  role: z.enum(['commander', 'agent']),
  model: text,
  status: z.enum(SESSION_STATUSES),
  system_prompt: text,
  tools_json: text,
  skills_json: text,
  answer: nullableText,
  answer_delivered: flag,
  started_at: text,
  finished_at: nullableText,
}));

export const RawMessage = lazySchema(() => z.object({
  id: int,
  session_id: text,
  seq: int,
  role: z.enum(['user', 'assistant']),
  parts_json: text,
  turn: int,
  kind: nullableText,
  call_id: nullableText,
  created_at: text,
}));

export const RawLedger = lazySchema(() => z.object({
  id: int,
  session_id: text,
  call_id: text,
  tool_ref: text,
  api_name: text,
  input_json: text,
  idempotent: flag,
  status: z.enum(LEDGER_STATUSES),
  result_json: nullableText,
  is_error: flag.nullable(),
  started_at: text,
  finished_at: nullableText,
}));

/** A model_turns row (one model call); `inherited` marks a fork's turns copied from its parent (0017). */
export const RawTurn = lazySchema(() => z.object({
  id: int,
  run_id: text,
  task_name: text,
  session_id: text,
  turn: int,
  model: text,
  input_tokens: int,
  output_tokens: int,
  cache_read_tokens: int,
  cache_write_tokens: int,
  cost_usd: z.number(),
  duration_ms: int,
  stop_reason: text,
  created_at: text,
  inherited: flag.optional(),
}));

export const RawTotals = lazySchema(() => z.object({
  input_tokens: int,
  output_tokens: int,
  cache_read_tokens: int,
  cache_write_tokens: int,
  cost_usd: z.number(),
  turns: int,
}));

export const RawSessionTotals = lazySchema(() => RawTotals().extend({ session_id: text }));

export const RawEvent = lazySchema(() => z.object({
  id: int,
  run_id: text,
  type: text,
  task_name: nullableText,
  session_id: nullableText,
  data_json: text,
  created_at: text,
}));

export const RawRoute = lazySchema(() => z.object({
  run_id: text,
  from_task: text,
  to_task: text,
  kind: z.enum(['route', 'send_to']),
  created_at: text,
}));

export const RawLease = lazySchema(() => z.object({
  run_id: text,
  owner: text,
  pid: int,
  host: text,
  acquired_at: text,
  heartbeat_at: text,
}));

/** A schema of anything (a JSON column Squadron only stores and hands back). */
export const UnknownSchema = lazySchema(() => z.unknown());

/** Validates one row read from `table`; a mismatch means the file was changed behind our back. */
export function parseRow<S extends z.ZodType>(schema: LazySchema<S>, table: string, row: unknown): z.output<S> {
  const result = schema().safeParse(row);
  if (!result.success) {
    throw new StoreError('CORRUPT_ROW', `unreadable ${table} row: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/** Restores, parses and validates a JSON column; `where` names the row in the error. */
export function parseJsonColumn<S extends z.ZodType>(
  codec: ColumnCodec,
  schema: LazySchema<S>,
  where: string,
  stored: string,
): z.output<S> {
  const result = schema().safeParse(readJsonColumn(codec, where, stored));
  if (!result.success) throw new StoreError('CORRUPT_ROW', `${where}: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** Restores and parses a JSON column without validating it (its checksum proved it; see rowChecksum.ts). */
export function readJsonColumn(codec: ColumnCodec, where: string, stored: string): unknown {
  try {
    return codec.readJson(stored);
  } catch (err) {
    throw new StoreError('CORRUPT_ROW', `${where} is not valid JSON`, { cause: err });
  }
}


/** A row of the budgets repo's totals: a task label's spend (`spent`) or a scope's live reservations (`held`). */
export const RawBudgetTotals = lazySchema(() => z.object({
  kind: z.enum(['spent', 'held']),
  name: text,
  tokens: z.coerce.number(),
  dollars: z.coerce.number(),
  calls: z.coerce.number(),
}));
