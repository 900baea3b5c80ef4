// `squadron runs`: the stored runs, newest first, with status, duration, tokens and cost.

import { hostname } from 'node:os';
import type { Command } from 'commander';
import { shownRunStatus } from '../../runtime/runStatus.js';
import { taskCounts } from '../../runtime/inspect.js';
import { totalTokens } from '../../runtime/usage.js';
import { MISSION_SCOPE, spendText, storedControl, type StoredBudget } from '../../runtime/budget/stored.js';
import type { RunSummary, Store } from '../../store/index.js';
import { positiveInt, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { DB_OPTION_HELP, openStoresToRead, shownPath } from '../storeAccess.js';
import { formatDuration, table } from '../table.js';
import { groupDigits } from '../../core/digits.js';
import { requestJson } from '../runReport.js';
import { registerPrune } from '../runsPrune.js';
import { forkJson, forkPointText } from '../forkText.js';

/** `1 approval, 2 questions` */
function waitingText(requests: readonly Record<string, unknown>[]): string {
  const approvals = requests.filter((r) => r['kind'] === 'approval').length;
  const questions = requests.length - approvals;
  const parts = [approvals > 0 ? `${approvals} approval${approvals === 1 ? '' : 's'}` : '', questions > 0 ? `${questions} question${questions === 1 ? '' : 's'}` : ''];
  // Every request decided, the run not yet resumed: say what is left to do, not `waiting ()`.
  return parts.filter(Boolean).join(', ') || 'all decided: resume it';
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

export function register(program: Command, io: CliIo): void {
  const runs = program
    .command('runs')
    .description('List stored runs, newest first')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--mission <name>', 'only runs of this mission')
    .option('--limit <n>', 'at most this many runs', positiveInt('--limit'), 50)
    .option('--json', JSON_FLAG_HELP)
    .action(async (flags: { db?: string; mission?: string; limit: number; json?: boolean }) => {
      const stores = await openStoresToRead(io, flags.db);
      try {
        const opts: { limit: number; mission?: string } = { limit: flags.limit };
        if (flags.mission) opts.mission = flags.mission;
        const listed = [];
        const forkedFrom = new Map<string, string>();
        for (const { store, path } of stores) {
          for (const r of await store.runs.list(opts)) {
            // A 'running' run whose runner is gone was interrupted (killed, crashed): say so.
            const status = await shownRunStatus(store, r.id, r.status);
            if (r.parentRunId !== undefined && r.fork) forkedFrom.set(r.id, forkPointText(r.parentRunId, r.fork));
            listed.push({
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
              db: shownPath(io, path),
            });
          }
        }
        const rows = listed
          // Several databases (found below the current folder): newest first across all of them.
          .sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0))
          .slice(0, flags.limit);
        if (flags.json) {
          writeJson(io, { runs: rows });
          return;
        }
        if (rows.length === 0) {
          io.stdout.write('no runs yet\n');
          return;
        }
        // Lineage gets a column only when some listed run is a fork.
        const forks = rows.some((r) => r.parent_run_id !== undefined);
        io.stdout.write(
          table(
            ['RUN', 'MISSION', 'STATUS', 'STARTED', 'DURATION', 'TASKS', 'TOKENS', 'COST', 'BUDGET', ...(forks ? ['FORKED FROM'] : [])],
            rows.map((r) => [
              r.id,
              r.mission,
              r.waiting_for ? `waiting (${waitingText(r.waiting_for)})` : r.status,
              r.started_at.replace('T', ' ').slice(0, 19),
              r.duration_ms === null ? '-' : formatDuration(r.duration_ms),
              `${r.tasks.completed}/${r.tasks.total}${r.tasks.skipped > 0 ? ` (${r.tasks.skipped} skipped)` : ''}`,
              groupDigits(r.tokens),
              `$${r.cost_usd.toFixed(4)}`,
              r.budget ? spendText(r.budget) : '-',
              ...(forks ? [forkedFrom.get(r.id) ?? '-'] : []),
            ]),
          ),
        );
      } finally {
        for (const { store } of stores) await store.close();
      }
    });
  registerPrune(runs, io);
}
