// Row types the store hands out. They are validated where they are read back: rowSchemas.ts checks
// the raw SQLite rows and JSON payloads with zod, rowReaders.ts turns them into these types.

import type { Part } from '../core/messages.js';
import type { ItemStatus, LedgerStatus, RunStatus, SessionStatus, TaskStatus } from '../core/statuses.js';
import type { ToolResult } from '../core/toolResults.js';

export type { ItemStatus, LedgerStatus, RunStatus, SessionStatus, TaskStatus } from '../core/statuses.js';
export type SessionRole = 'commander' | 'agent';
export type RouteKind = 'route' | 'send_to';

export interface RunRow {
  id: string;
  mission: string;
  configPath: string;
  status: RunStatus;
  inputs: Record<string, unknown>;
  /** How the run was started (the runtime's RunOptions). */
  options: Record<string, unknown>;
  startedAt: string;
  finishedAt?: string;
  error?: string;
  /** The config files the run last ran with; undefined for runs stored before this was recorded. */
  config?: RunConfig;
  /** The variables the run last ran with; undefined for runs stored before this was recorded. */
  variables?: RunVariables;
  /** Every resume that went ahead with a changed config, oldest first. */
  configChanges: ConfigChangeRecord[];
  /** The run's budgets as last recorded by its runner; undefined for runs stored before this was recorded. */
  budget?: RunBudget | undefined;
  /** The identity of the run's workspace folder (0015); undefined for runs stored before it was recorded. */
  workspace?: WorkspaceIdentity | undefined;
  /** The run this one was forked from (`squadron fork`), and where; undefined for a run started afresh. */
  parentRunId?: string | undefined;
  fork?: ForkPoint | undefined;
}

/** Where a forked run left its parent and what it changed from there on (recorded once, at the fork). */
export interface ForkPoint {
  task: string;
  turn?: number | undefined;
  /** What differs from the parent from the fork point on: `input topic`, `var region`, `config mission.hcl`, `replay …`. */
  changes: string[];
  /** Tasks copied from the parent with their outputs, sessions and ledger (never run again). */
  copied: string[];
}

/**
 * Which folder a run's workspace is: its inode and birth time (nanoseconds; "0" where the file system
 * records none), as decimal strings, and its device, kept for people (a device number may change
 * across reboots, so it is not compared).
 */
export interface WorkspaceIdentity {
  dev: string;
  ino: string;
  born: string;
}

/**
 * A run's budget limits by scope (`mission` or a task's name; `duration` in ms) and the time each
 * scope had run (ms) when recorded; `since` while a process runs it (its time counts from there).
 */
export interface RunBudget {
  limits: Record<string, Partial<Record<'tokens' | 'dollars' | 'duration', number>>>;
  elapsed: Record<string, number>;
  since?: string;
}

/** Content hashes (sha256, hex) of the config files, by path relative to the project root. */
export interface RunConfig {
  files: Record<string, string>;
}

/** Non-secret variable values as used; secret variables by name only (never their values). */
export interface RunVariables {
  values: Record<string, string>;
  secrets: string[];
}

export interface ConfigChangeRecord {
  at: string;
  changes: string[];
}

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  /** Number of model turns recorded. */
  turns: number;
}

export interface RunSummary extends RunRow {
  totals: UsageTotals;
  tasks: { total: number; completed: number; failed: number };
}

export interface TaskRow {
  id: string;
  runId: string;
  name: string;
  status: TaskStatus;
  startedAt?: string;
  finishedAt?: string;
  summary?: string;
  /** undefined when no output was submitted (a submitted JSON `null` reads back as null). */
  output?: unknown;
  route?: string;
  error?: string;
  /** 1, plus one per retry of a failed attempt. */
  attempt: number;
}

/** One item of an iterated task in a run. */
export interface ItemRow {
  runId: string;
  task: string;
  index: number;
  status: ItemStatus;
  /** 1, plus one per re-run from a fresh session. */
  attempt: number;
  startedAt?: string;
  finishedAt?: string;
  summary?: string;
  /** undefined when the item's commander submitted no output. */
  output?: unknown;
  error?: string;
}

export interface SessionRow {
  id: string;
  runId: string;
  task: string;
  agent: string;
  role: SessionRole;
  model: string;
  status: SessionStatus;
  systemPrompt: string;
  tools: unknown;
  skills: unknown;
  answer?: string;
  answerDelivered: boolean;
  startedAt: string;
  finishedAt?: string;
}

/** A message without its parts: where it stands and why it exists (see `MessagesRepo.heads`). */
export interface MessageHead {
  id: number;
  seq: number;
  role: 'user' | 'assistant';
  turn: number;
  kind?: string;
  callId?: string;
  /** UTF-8 bytes of JSON.stringify(parts), when the store knows them without reading the row (partsJsonBytes). */
  partsBytes?: number;
}

export interface MessageRow {
  id: number;
  sessionId: string;
  /** 1-based position in the session. */
  seq: number;
  role: 'user' | 'assistant';
  parts: Part[];
  turn: number;
  /** Why the message exists, as the runtime gave it. */
  kind?: string;
  /** The commander tool call an instruction belongs to. */
  callId?: string;
  createdAt: string;
}

export interface LedgerRow {
  id: number;
  sessionId: string;
  callId: string;
  toolRef: string;
  apiName: string;
  input: unknown;
  idempotent: boolean;
  status: LedgerStatus;
  /** Present once status is `completed`. */
  result?: ToolResult;
  startedAt: string;
  finishedAt?: string;
}

export interface EventRow {
  id: number;
  runId: string;
  type: string;
  task?: string;
  sessionId?: string;
  data: unknown;
  createdAt: string;
}

export interface RouteRow {
  runId: string;
  from: string;
  to: string;
  kind: RouteKind;
  createdAt: string;
}

export interface LeaseRow {
  runId: string;
  owner: string;
  pid: number;
  host: string;
  acquiredAt: string;
  heartbeatAt: string;
}
