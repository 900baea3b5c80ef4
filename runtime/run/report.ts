// What a run reports when it ends: each task's status and output, its items, its budgets, its totals;
// read back from the store so a run and its resume report alike.

import type { MissionGraph } from '../../config/graph.js';
import type { Store } from '../../store/index.js';
import { replaysEveryModel } from '../model/models.js';
import type { MissionStatus } from '../schedule/scheduler.js';
import { emptyTotals, type UsageTotals } from '../kernel/usage.js';
import type { BudgetKind, Limits } from '../budget/limits.js';
import type { OperatorRequestRow } from '../../store/index.js';
import type { ExecuteRequest } from './environment.js';

export interface TaskReport {
  status: string;
  summary?: string;
  output?: unknown;
  error?: string;
  /** Why a skipped task did not run (a route not taken, a skipped dependency). */
  skipReason?: string;
  /** An iterated task's items: counts and each item's status, summary, output or error. */
  items?: ItemsReport;
}

export interface ItemsReport {
  total: number;
  completed: number;
  failed: number;
  list: { index: number; status: string; attempt: number; summary?: string; output?: unknown; error?: string }[];
}

export interface RunReport {
  runId: string;
  mission: string;
  status: MissionStatus;
  error?: string;
  tasks: Record<string, TaskReport>;
  usage: UsageTotals;
  workspaceDir: string;
  logPath: string;
  /** Every model answer came from a cassette: nothing was spent (the cost is 0). */
  replayed?: true;
  /** Each budget (`mission` or a task) with its limits and what it has spent, when any is set. */
  budgets?: BudgetReport[];
  /** A waiting run: the requests its operator has to decide before `resume`. */
  waitingFor?: OperatorRequestRow[];
  /** The database failed mid-run (full, an I/O error, a lost connection): the run stopped as interrupted, resumable once the cause is gone. */
  storeFailed?: true;
}

export interface BudgetReport {
  scope: string;
  limits: Limits;
  spent: Partial<Record<BudgetKind, number>>;
}


export async function report(store: Store, graph: MissionGraph, req: ExecuteRequest, result: { status: MissionStatus; error?: string }, logPath: string): Promise<RunReport> {
  const tasks: Record<string, TaskReport> = {};
  const rows = new Map((await store.tasks.list(req.runId)).map((r) => [r.name, r]));
  const skipReasons = [...rows.values()].some((r) => r.status === 'skipped') ? await storedSkipReasons(store, req.runId) : new Map<string, string>();
  for (const task of req.mission.tasks) {
    const row = rows.get(task.name);
    const entry: TaskReport = { status: row?.status ?? 'pending' };
    if (row?.summary !== undefined) entry.summary = row.summary;
    if (row?.output !== undefined) entry.output = row.output;
    if (row?.error !== undefined) entry.error = row.error;
    const reason = row?.status === 'skipped' ? skipReasons.get(task.name) : undefined;
    if (reason !== undefined) entry.skipReason = reason;
    if (task.iterator !== undefined) entry.items = await itemsReport(store, req.runId, task.name);
    tasks[task.name] = entry;
  }
  const usage = { ...emptyTotals(), ...(await store.turns.totalsForRun(req.runId)) };
  const out: RunReport = { runId: req.runId, mission: req.mission.name, status: result.status, tasks, usage, workspaceDir: req.options.workspaceDir, logPath };
  if (result.error) out.error = result.error;
  if (replaysEveryModel(graph, req.mission, req.options.replay)) out.replayed = true;
  return out;
}

async function itemsReport(store: Store, runId: string, task: string): Promise<ItemsReport> {
  const rows = await store.items.list(runId, task);
  const list = rows.map((r) => {
    const item: ItemsReport['list'][number] = { index: r.index, status: r.status, attempt: r.attempt };
    if (r.summary !== undefined) item.summary = r.summary;
    if (r.output !== undefined) item.output = r.output;
    if (r.error !== undefined) item.error = r.error;
    return item;
  });
  return { total: rows.length, completed: rows.filter((r) => r.status === 'completed').length, failed: rows.filter((r) => r.status === 'failed').length, list };
}

/** The reason of each task's first `task.skipped` event (the tasks table has no column for it). */
async function storedSkipReasons(store: Store, runId: string): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  for (const event of await store.events.list(runId)) {
    if (event.type !== 'task.skipped' || event.task === undefined || reasons.has(event.task)) continue;
    const reason = (event.data as { reason?: unknown } | null)?.reason;
    if (typeof reason === 'string') reasons.set(event.task, reason);
  }
  return reasons;
}
