// `squadron inspect --json` (and the server's GET /v1/runs/{id}): a stored run as the documented JSON contract (snake_case keys; task
// outputs, tool inputs and run inputs verbatim). Also the usage figures in the shape `run --json` uses.

import { forkJson } from './forkText.js';
import { requestJson } from './requestJson.js';
import type { RunInspection, SessionTranscript, TaskInspection } from '../runtime/inspect/inspect.js';
import { RunOptionsSchema } from '../runtime/run/runOptions.js';
import { totalTokens, type UsageTotals } from '../runtime/kernel/usage.js';
import { snakeKeys } from './jsonKeys.js';

export function usageJson(u: UsageTotals): Record<string, number> {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_tokens: u.cacheReadTokens,
    cache_write_tokens: u.cacheWriteTokens,
    total_tokens: totalTokens(u),
    cost_usd: Number(u.costUsd.toFixed(6)),
    model_turns: u.turns,
  };
}

export function inspectionJson(ins: RunInspection): Record<string, unknown> {
  const { run } = ins;
  const options = RunOptionsSchema.partial().safeParse(run.options).data ?? {};
  return {
    run: {
      id: run.id,
      mission: run.mission,
      status: run.status,
      config_path: run.configPath,
      inputs: run.inputs,
      started_at: run.startedAt,
      ...(run.finishedAt !== undefined ? { finished_at: run.finishedAt } : {}),
      ...(run.error !== undefined ? { error: run.error } : {}),
      ...(options.workspaceDir !== undefined ? { workspace: options.workspaceDir } : {}),
      // A fork: the run it was forked from and its fork point (task, turn, what changed, what was copied).
      ...(run.parentRunId !== undefined ? { parent_run_id: run.parentRunId } : {}),
      ...(run.fork !== undefined ? { fork: forkJson(run.fork) } : {}),
      // PostgreSQL: the runner coordinating the run (see RunnerInfo), absent on SQLite.
      ...(ins.runner !== undefined ? { runner: ins.runner } : {}),
    },
    usage: usageJson(ins.usage),
    tasks: ins.tasks.map(taskJson),
    // Budgets (limits and spend; duration in ms) and the budget and loop-guard events.
    budgets: ins.control.budgets.map((b) => ({ scope: b.scope, limits: b.limits, spent: b.spent })),
    control_events: ins.control.events,
    operator_requests: ins.requests.map(requestJson),
  };
}

function taskJson(t: TaskInspection): Record<string, unknown> {
  return {
    name: t.name,
    status: t.status,
    depends_on: t.dependsOn,
    routes: t.routes,
    send_to: t.sendTo,
    ...(t.direct ? { direct: true } : {}),
    ...(t.activatedBy !== undefined ? { activated_by: t.activatedBy } : {}),
    ...(t.summary !== undefined ? { summary: t.summary } : {}),
    ...(t.output !== undefined ? { output: t.output } : {}),
    ...(t.route !== undefined ? { route: t.route } : {}),
    ...(t.error !== undefined ? { error: t.error } : {}),
    ...(t.startedAt !== undefined ? { started_at: t.startedAt } : {}),
    ...(t.finishedAt !== undefined ? { finished_at: t.finishedAt } : {}),
    usage: usageJson(t.usage),
    ...(t.runner !== undefined ? { runner: t.runner } : {}),
    ...(t.items !== undefined
      ? {
          items: {
            total: t.items.total,
            completed: t.items.completed,
            failed: t.items.failed,
            list: t.items.list.map((i) => ({
              index: i.index,
              status: i.status,
              attempt: i.attempt,
              summary: i.summary ?? null,
              output: i.output ?? null,
              ...(i.error !== undefined ? { error: i.error } : {}),
              ...(i.startedAt !== undefined ? { started_at: i.startedAt } : {}),
              ...(i.finishedAt !== undefined ? { finished_at: i.finishedAt } : {}),
              ...(i.runner !== undefined ? { runner: i.runner } : {}),
            })),
          },
        }
      : {}),
    ...(t.sessions !== undefined ? { sessions: t.sessions.map(sessionJson) } : {}),
  };
}

function sessionJson(s: SessionTranscript): Record<string, unknown> {
  return {
    id: s.id,
    // The task, "task#n" for a failed attempt n, "task[i]" for item i of an iterated task.
    label: s.task,
    agent: s.agent,
    role: s.role,
    model: s.model,
    status: s.status,
    system_prompt: s.systemPrompt,
    usage: usageJson(s.usage),
    // Message parts and ledger rows are squadron's shapes; the tool inputs and results inside stay verbatim.
    messages: s.messages.map(({ id: _id, sessionId: _session, ...m }) => snakeKeys(m)),
    tool_calls: s.toolCalls.map(({ id: _id, sessionId: _session, ...c }) => snakeKeys(c)),
    context_views: s.contextViews.map(({ sessionId: _session, ...v }) => snakeKeys(v)),
  };
}
