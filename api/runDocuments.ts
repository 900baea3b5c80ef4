// Stored runs as documents: the rows `squadron runs --json` lists and the document `squadron inspect
// --json` prints, for one opened database. The CLI and the server answer with these same documents.

import { shownRunStatus } from '../runtime/kernel/runStatus.js';
import { taskCounts } from '../runtime/inspect/inspect.js';
import { totalTokens } from '../runtime/kernel/usage.js';
import { MISSION_SCOPE, storedControl, type StoredBudget } from '../runtime/budget/stored.js';
import type { RunSummary, Store } from '../store/index.js';
import { inspectionJson } from './inspectJson.js';
import { requestJson } from './requestJson.js';
import { forkJson, type ForkPointJson } from './forkText.js';

export interface RunListItem {
  id: string;
  mission: string;
  status: string;
  started_at: string;
  duration_ms: number | null;
  tasks: Awaited<ReturnType<typeof taskCounts>>;
  tokens: number;
  cost_usd: number;
  budget: StoredBudget | null;
  waiting_for?: Record<string, unknown>[];
  error?: string;
  /** The run this one was forked from (`squadron fork`), and its fork point. */
  parent_run_id?: string;
  fork?: ForkPointJson;
}

/** The runs of `store`, newest first, as `runs --json` lists them (without its `db` field). */
export async function listRuns(store: Store, opts: { limit: number; mission?: string }): Promise<RunListItem[]> {
  const out: RunListItem[] = [];
  for (const r of await store.runs.list(opts)) out.push(await runListItem(store, r));
  return out;
}

/** One stored run as a row of `runs --json` (the console lists pages of these). */
export async function runListItem(store: Store, r: RunSummary): Promise<RunListItem> {
  // A 'running' run whose runner is gone was interrupted (killed, crashed): say so.
  const status = await shownRunStatus(store, r.id, r.status);
  return {
    id: r.id,
    mission: r.mission,
    status,
    started_at: r.startedAt,
    duration_ms: r.finishedAt ? Date.parse(r.finishedAt) - Date.parse(r.startedAt) : null,
    tasks: await taskCounts(store, r),
    tokens: totalTokens(r.totals),
    cost_usd: Number(r.totals.costUsd.toFixed(6)),
    budget: await missionBudget(store, r, status, Date.now()),
    ...(r.status === 'waiting' ? { waiting_for: (await store.operatorRequests.list(r.id, { pendingOnly: true })).map(requestJson) } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.parentRunId !== undefined ? { parent_run_id: r.parentRunId } : {}),
    ...(r.fork !== undefined ? { fork: forkJson(r.fork) } : {}),
  };
}

/** One run as `inspect --json` prints it, or undefined when the store has no such run. */
export async function getRun(store: Store, runId: string, opts: { task?: string; transcript?: boolean } = {}): Promise<Record<string, unknown> | undefined> {
  const { inspectRun } = await import('../runtime/inspect/inspect.js');
  const inspection = await inspectRun(store, runId, opts);
  return inspection ? inspectionJson(inspection) : undefined;
}

/**
 * The mission's budget of a run and its spend; null when the run has none. One read: the budget the
 * run's runner recorded on its row (time still counting while it runs); only a run stored before
 * that was recorded has its budget found in its events.
 */
async function missionBudget(store: Store, run: RunSummary, status: string, now: number): Promise<StoredBudget | null> {
  if (run.budget === undefined) {
    const { budgets } = await storedControl(store, run.id, (scope) => (scope === MISSION_SCOPE ? run.totals : undefined));
    return budgets.find((b) => b.scope === MISSION_SCOPE) ?? null;
  }
  const limits = run.budget.limits[MISSION_SCOPE];
  if (limits === undefined) return null;
  const since = status === 'running' && run.budget.since !== undefined ? Math.max(0, now - Date.parse(run.budget.since)) : 0;
  return { scope: MISSION_SCOPE, limits, spent: { tokens: totalTokens(run.totals), dollars: run.totals.costUsd, duration: (run.budget.elapsed[MISSION_SCOPE] ?? 0) + since } };
}
