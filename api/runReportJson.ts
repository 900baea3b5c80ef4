// A run's report (what run, resume and fork return, camelCase) as the documented JSON document
// `run --json`, `resume --json` and `fork --json` print (snake_case): the one mapping between the two.

import type { BudgetReport, RunReport } from '../runtime/run/run.js';
import { BUDGET_KINDS } from '../runtime/budget/limits.js';
import { totalTokens } from '../runtime/kernel/usage.js';
import { requestJson } from './requestJson.js';

export function runReportJson(report: RunReport): Record<string, unknown> {
  const tasks: Record<string, unknown> = {};
  for (const [name, task] of Object.entries(report.tasks)) {
    tasks[name] = {
      status: task.status,
      summary: task.summary ?? null,
      output: task.output ?? null,
      ...(task.error ? { error: task.error } : {}),
      ...(task.skipReason ? { skip_reason: task.skipReason } : {}),
      ...(task.items
        ? {
            items: {
              total: task.items.total,
              completed: task.items.completed,
              failed: task.items.failed,
              list: task.items.list.map((i) => ({ index: i.index, status: i.status, attempt: i.attempt, summary: i.summary ?? null, output: i.output ?? null, ...(i.error ? { error: i.error } : {}) })),
            },
          }
        : {}),
    };
  }
  return {
    run_id: report.runId,
    mission: report.mission,
    status: report.status,
    ...(report.error ? { error: report.error, error_code: report.storeFailed ? 'store_failed' : (ERROR_CODE_OF[report.status] ?? 'mission_failed') } : {}),
    tasks,
    usage: {
      input_tokens: report.usage.inputTokens,
      output_tokens: report.usage.outputTokens,
      cache_read_tokens: report.usage.cacheReadTokens,
      cache_write_tokens: report.usage.cacheWriteTokens,
      total_tokens: totalTokens(report.usage),
      cost_usd: Number(report.usage.costUsd.toFixed(6)),
      model_turns: report.usage.turns,
    },
    ...(report.budgets ? { budgets: report.budgets.map(budgetJson) } : {}),
    ...(report.waitingFor ? { waiting_for: report.waitingFor.map(requestJson) } : {}),
    workspace: report.workspaceDir,
  };
}

const ERROR_CODE_OF: Partial<Record<RunReport['status'], string>> = { interrupted: 'interrupted', stopped: 'budget_exceeded', waiting: 'waiting', failed: 'mission_failed' };

/** `{scope, tokens: {spent, limit}, dollars: …, duration_ms: …}`: only the limits the budget sets. */
function budgetJson(b: BudgetReport): Record<string, unknown> {
  const out: Record<string, unknown> = { scope: b.scope };
  for (const kind of BUDGET_KINDS) {
    const limit = b.limits[kind];
    if (limit === undefined) continue;
    const spent = b.spent[kind] ?? 0;
    out[kind === 'duration' ? 'duration_ms' : kind] = { spent: kind === 'dollars' ? Number(spent.toFixed(6)) : Math.round(spent), limit };
  }
  return out;
}

