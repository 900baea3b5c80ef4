// Reads a stored run back for people: the task graph with statuses, summaries, outputs and usage per
// task, and optionally every session's conversation with its tool calls in order. Works from the
// database alone (the run stores its task graph), so a run can be inspected without its config.

import type { ContextViewRow, ItemRow, LedgerRow, MessageRow, OperatorRequestRow, RunRow, SessionRow, Store, TaskRow, UnitRow } from '../../store/index.js';
import { itemLabel } from '../../core/sessionLabels.js';
import type { StoredPayload } from '../../core/storedResults.js';
import { RunOptionsSchema, type TaskGraphEntry } from '../run/runOptions.js';
import { isSessionOfTask } from '../kernel/taskAttempts.js';
import { shownRunStatus } from '../kernel/runStatus.js';
import { emptyTotals, type UsageTotals } from '../kernel/usage.js';
import { MISSION_SCOPE, storedControl, type StoredControl } from '../budget/stored.js';


export interface SessionTranscript {
  id: string;
  /** The task, or "<task>#<n>" for a session of its failed attempt n. */
  task: string;
  agent: string;
  role: string;
  model: string;
  status: string;
  systemPrompt: string;
  usage: UsageTotals;
  messages: MessageRow[];
  toolCalls: LedgerRow[];
  /** Where the session's requests were cut down (compaction, pruning), oldest first. */
  contextViews: ContextViewRow[];
}

/**
 * The process that executed a unit of work on a shared queue (PostgreSQL): its lease owner id
 * (`wrk_…` a `squadron worker`, `own_…` a `run` or `resume` process), pid and host, and how many
 * times the unit was claimed (more than once: a runner was lost and another took over).
 */
export interface RunnerInfo {
  id: string;
  pid: number;
  host: string;
  claims: number;
}

export interface TaskInspection {
  name: string;
  status: string;
  /** 1, plus one per `resume --retry-failed` of a failed attempt. */
  attempt: number;
  dependsOn: string[];
  /** Targets of the task's router (conditions are in the config, not the run). */
  routes: string[];
  sendTo: string[];
  /** A direct task: its worker ran it alone (no commander session). */
  direct?: true;
  activatedBy?: string;
  summary?: string;
  output?: unknown;
  route?: string;
  error?: string;
  startedAt?: string;
  finishedAt?: string;
  usage: UsageTotals;
  /**
   * PostgreSQL: the runner that executed (or executes) the task's current attempt: the holder of its
   * unit of work, or the run's coordinator when the task ran in it. Undefined on SQLite (one runner
   * per run) and for a task not started or whose unit waits in the queue.
   */
  runner?: RunnerInfo;
  /** An iterated task's items (all of them, or the one asked for with `item`). */
  items?: { total: number; completed: number; failed: number; list: ItemInspection[]; only?: number };
  sessions?: SessionTranscript[];
}

/** An item of an iterated task, with (PostgreSQL) the runner that executed its current attempt, as for a task. */
export type ItemInspection = ItemRow & { runner?: RunnerInfo };

export interface RunInspection {
  run: RunRow;
  /** PostgreSQL: the runner that coordinates (or last coordinated) the run. */
  runner?: RunnerInfo;
  usage: UsageTotals;
  tasks: TaskInspection[];
  /** Each budget with its limits and spend, and the budget and loop-guard events, oldest first. */
  control: StoredControl;
  /** What the run asked its operator (approvals, questions) and the decisions, oldest first. */
  requests: OperatorRequestRow[];
}

export async function inspectRun(store: Store, runId: string, opts: { task?: string; item?: number; transcript?: boolean } = {}): Promise<RunInspection | undefined> {
  const stored = await store.runs.get(runId);
  if (!stored) return undefined;
  // As `runs` shows it: a run marked running whose runner is gone is interrupted.
  const run: RunRow = { ...stored, status: (await shownRunStatus(store, runId, stored.status)) as RunRow['status'] };
  const graph = storedTaskGraph(run);
  const rows = new Map((await store.tasks.list(runId)).map((t) => [t.name, t]));
  const names = taskNames(graph, rows);
  const sessions = await store.sessions.listForRun(runId);
  const bySession = await store.turns.totalsBySession(runId);
  const routes = await store.routes.list(runId);
  const units = store.units ? await store.units.list(runId) : [];
  const coordinator = runnerOf(units.find((u) => u.kind === 'run'));
  const allRequests = await store.operatorRequests.list(runId);

  const tasks: TaskInspection[] = [];
  for (const name of names) {
    if (opts.task !== undefined && name !== opts.task) continue;
    const row = rows.get(name);
    const node = graph.find((t) => t.name === name);
    // Sessions of earlier attempts (retried failures) count too: their turns were paid for.
    const itemRows = await store.items.list(runId, name);
    const one = opts.item === undefined ? undefined : itemLabel(name, opts.item);
    const own = sessions.filter((s) => (one === undefined ? isSessionOfTask(s.task, name) : s.task === one || s.task.startsWith(`${one}#`)));
    const entry: TaskInspection = {
      name,
      status: parkedStatus(run, name, taskStatus(run, row), allRequests),
      attempt: row?.attempt ?? 1,
      dependsOn: node?.dependsOn ?? [],
      routes: node?.routes ?? [],
      sendTo: node?.sendTo ?? [],
      usage: sumTotals(own.map((s) => bySession.get(s.id))),
    };
    const runner = taskRunner(units, name, entry.attempt, row?.startedAt !== undefined ? coordinator : undefined);
    if (runner) entry.runner = runner;
    if (node?.direct) entry.direct = true;
    const activator = routes.find((r) => r.to === name);
    if (activator) entry.activatedBy = activator.from;
    if (row?.summary !== undefined) entry.summary = row.summary;
    if (row?.output !== undefined) entry.output = row.output;
    if (row?.route !== undefined) entry.route = row.route;
    if (row?.error !== undefined) entry.error = row.error;
    if (row?.startedAt !== undefined) entry.startedAt = row.startedAt;
    if (row?.finishedAt !== undefined) entry.finishedAt = row.finishedAt;
    if (itemRows.length > 0) {
      const count = (status: string): number => itemRows.filter((r) => r.status === status).length;
      const list = (opts.item === undefined ? itemRows : itemRows.filter((r) => r.index === opts.item)).map((r): ItemInspection => {
        const itemRunner = taskRunner(units, itemLabel(name, r.index), r.attempt, r.startedAt !== undefined ? coordinator : undefined);
        return itemRunner ? { ...r, runner: itemRunner } : r;
      });
      entry.items = { total: itemRows.length, completed: count('completed'), failed: count('failed'), list, ...(opts.item !== undefined ? { only: opts.item } : {}) };
    }
    if (opts.transcript) {
      entry.sessions = await Promise.all(orderSessions(own, name).map((s) => transcriptOf(store, s, bySession.get(s.id))));
    }
    tasks.push(entry);
  }
  const usage = await store.turns.totalsForRun(runId);
  const taskUsage = (name: string) => sumTotals(sessions.filter((s) => isSessionOfTask(s.task, name)).map((s) => bySession.get(s.id)));
  const control = await storedControl(store, runId, (scope) => (scope === MISSION_SCOPE ? usage : taskUsage(scope)));
  const requests = allRequests.filter((r) => opts.task === undefined || r.task === opts.task || r.task.startsWith(`${opts.task}[`));
  return { run, ...(coordinator ? { runner: coordinator } : {}), usage, tasks, control, requests };
}

function runnerOf(unit: UnitRow | undefined): RunnerInfo | undefined {
  if (unit?.owner === undefined) return undefined;
  return { id: unit.owner, pid: unit.pid ?? 0, host: unit.host ?? '', claims: unit.claims };
}

/**
 * The holder of the task's unit for its current attempt (an item's unit is named by its label,
 * `task[i]`); without one, the coordinator if the task or item started.
 */
function taskRunner(units: readonly UnitRow[], task: string, attempt: number, coordinator: RunnerInfo | undefined): RunnerInfo | undefined {
  const unit = units.find((u) => u.kind === 'task' && u.task === task && u.attempt === attempt);
  return unit ? runnerOf(unit) : coordinator;
}

/** A stored result of the run, as kept (text, JSON text, images, structured content, resources). */
export interface StoredResultInspection {
  handle: string;
  bytes: number;
  /** The sessions of the run that may read it (the one that received it, and a commander it was passed to). */
  sessions: { id: string; task: string; agent: string }[];
  payload: StoredPayload;
}

/** The payload behind a handle a run's conversation names (inspect --result), or undefined. */
export async function inspectStoredResult(store: Store, runId: string, handle: string): Promise<StoredResultInspection | undefined> {
  let found: { payload: StoredPayload; bytes: number } | undefined;
  const readers: StoredResultInspection['sessions'] = [];
  for (const session of await store.sessions.listForRun(runId)) {
    const read = await store.storedResults.read(session.id, handle);
    if (read === undefined) continue;
    found ??= read;
    readers.push({ id: session.id, task: session.task, agent: session.agent });
  }
  return found === undefined ? undefined : { handle, bytes: found.bytes, sessions: readers, payload: found.payload };
}

export interface TaskCounts {
  /** Every task of the mission (from the task graph stored with the run), started or not. */
  total: number;
  completed: number;
  failed: number;
  skipped: number;
}

/** How many of the run's tasks are done, failed and skipped, out of all the mission's tasks. */
export async function taskCounts(store: Store, run: RunRow): Promise<TaskCounts> {
  const rows = new Map((await store.tasks.list(run.id)).map((t) => [t.name, t]));
  const statuses = taskNames(storedTaskGraph(run), rows).map((name) => taskStatus(run, rows.get(name)));
  const count = (status: string): number => statuses.filter((s) => s === status).length;
  return { total: statuses.length, completed: count('completed'), failed: count('failed'), skipped: count('skipped') };
}

function storedTaskGraph(run: RunRow): TaskGraphEntry[] {
  return RunOptionsSchema.shape.taskGraph.safeParse(run.options['taskGraph']).data ?? [];
}

/** The graph's tasks in declaration order, then any stored task the graph does not name. */
function taskNames(graph: readonly TaskGraphEntry[], rows: ReadonlyMap<string, TaskRow>): string[] {
  return [...graph.map((t) => t.name), ...[...rows.keys()].filter((n) => !graph.some((t) => t.name === n))];
}

/**
 * A task's status as stored; a task never started in a run that completed was left out by routing,
 * so it is `skipped` (runs stored before skipped tasks were recorded read the same way).
 */
function taskStatus(run: RunRow, row: TaskRow | undefined): string {
  if (row !== undefined) return row.status;
  return run.status === 'completed' ? 'skipped' : 'pending';
}

/**
 * A task of a waiting run that parked a request (an approval, a question; decided or not) is
 * `waiting`, not `pending`: it started, and resume continues it.
 */
function parkedStatus(run: RunRow, task: string, status: string, requests: readonly OperatorRequestRow[]): string {
  if (run.status !== 'waiting' || status === 'completed' || status === 'failed' || status === 'skipped') return status;
  return requests.some((r) => r.task === task || r.task.startsWith(`${task}[`)) ? 'waiting' : status;
}

/** Earlier attempts first; within an attempt the commander first, then agents as they started. */
function orderSessions(sessions: SessionRow[], task: string): SessionRow[] {
  const attempt = (s: SessionRow) => {
    const hash = s.task.lastIndexOf('#');
    return hash < 0 ? Number.POSITIVE_INFINITY : Number(s.task.slice(hash + 1));
  };
  return [...sessions].sort(
    (a, b) => attempt(a) - attempt(b) || a.task.replace(/#.*/, '').localeCompare(b.task.replace(/#.*/, ''), 'en', { numeric: true }) || (a.role === b.role ? a.startedAt.localeCompare(b.startedAt) : a.role === 'commander' ? -1 : 1),
  );
}

async function transcriptOf(store: Store, session: SessionRow, usage: UsageTotals | undefined): Promise<SessionTranscript> {
  return {
    id: session.id,
    task: session.task,
    agent: session.agent,
    role: session.role,
    model: session.model,
    status: session.status,
    systemPrompt: session.systemPrompt,
    usage: usage ?? emptyTotals(),
    messages: await store.messages.list(session.id),
    toolCalls: await store.ledger.listForSession(session.id),
    contextViews: await store.contextViews.list(session.id),
  };
}

function sumTotals(items: (UsageTotals | undefined)[]): UsageTotals {
  const total = emptyTotals();
  for (const t of items) {
    if (!t) continue;
    total.inputTokens += t.inputTokens;
    total.outputTokens += t.outputTokens;
    total.cacheReadTokens += t.cacheReadTokens;
    total.cacheWriteTokens += t.cacheWriteTokens;
    total.costUsd += t.costUsd;
    total.turns += t.turns;
  }
  return total;
}
