// A direct task (`direct = true`): no commander. The task's worker, materialized as for a commander
// (workerDefinition: the task's tools, skills, model, a prompt from prompts/worker.md), runs the
// objective itself and holds the task's finishing tools: query_task_output when there are upstream
// results, submit_output when the task declares an output, task_complete (with the route choice when
// the task has routes). Its session is the worker's ordinary session under the task's (or item's)
// label, so a direct task is a task whose commander session is absent: resume, inspect, the ledger and
// the queue's runners need nothing of their own.

import type { MissionGraph, Mission, TaskSpec } from '../../config/graph.js';
import { durableStep } from '../kernel/durableStep.js';
import type { TemplateScope } from '../../core/promptTemplates.js';
import { openTaskSession } from './taskSession.js';
import type { RunContext, SelectionOverrides, ToolResolver } from './runContext.js';
import type { QuerySource } from './queryTaskOutput.js';
import { agentSessionDeps } from './agentPool.js';
import { commanderToolset, outcomeOf, upstreamSection, type CommanderSteps, type TaskOutcome, type UpstreamResult } from './commander.js';
import { CommanderState } from '../kernel/commanderState.js';
import { finishingTools } from './commanderTools.js';
import { workerDefinition, type AgentDefinition } from './definitions.js';
import { AgentSession } from '../session/session.js';
import type { SessionDeps } from '../session/sessionTypes.js';
import type { SessionTool } from '../tools/toolbox.js';

/** What the direct worker's prompt says besides the worker's usual text (plan renders the same). */
export function directContract(task: TaskSpec, upstream: readonly UpstreamResult[]): TemplateScope {
  return {
    upstream: upstreamSection(upstream),
    output: task.output !== undefined,
    routes: task.router.length > 0 ? { options: task.router.map((r) => ({ target: r.target, condition: r.condition })) } : undefined,
  };
}

/** The task's worker with the direct contract in its prompt; the objective is its first message. */
export function directWorkerDefinition(
  run: { graph: MissionGraph; mission: Mission; tools: ToolResolver; overrides: SelectionOverrides },
  task: TaskSpec,
  objective: string,
  upstream: readonly UpstreamResult[],
): Promise<AgentDefinition | undefined> {
  return workerDefinition({ graph: run.graph, mission: run.mission, task, objective, tools: run.tools, overrides: run.overrides, direct: directContract(task, upstream) });
}

/** The finishing tools in the commander's order: query_task_output (with upstream results), submit_output, task_complete. */
export function directFinishingTools(task: TaskSpec, state: CommanderState, source: QuerySource): SessionTool[] {
  return commanderToolset(finishingTools({ state, output: task.output, routes: task.router }), source);
}

const WHO = 'the worker';

/**
 * Runs a direct task (or one item of one) to its outcome; a stored session is continued from where
 * it stopped. `steps` fold the caller's writes into the session's commits as for a commander.
 */
export async function runDirect(
  ctx: RunContext,
  task: TaskSpec,
  upstream: readonly UpstreamResult[],
  objective: string,
  steps: CommanderSteps = {},
): Promise<TaskOutcome & { stored?: boolean }> {
  const { store } = ctx;
  const def = await directWorkerDefinition(ctx, task, objective, upstream);
  // The config refuses a direct task without tools (GRA014); a run of an older config says so.
  if (def === undefined) return { status: 'failed', error: `task "${task.name}" is direct but has no worker (it declares no tools)` };
  // What the worker decided so far (submit_output, task_complete) is read back from its conversation.
  const opened = await openTaskSession(
    ctx,
    { task: task.name, agent: 'worker', role: 'agent', model: def.model.apiModel, systemPrompt: () => def.systemPrompt, tools: def.given.tools, skills: def.given.skills, discovery: def.discovery !== undefined, objective },
    steps.begin,
  );
  const { row, history } = opened;
  if (opened.resumed) ctx.bus.emit(opened.started);
  for (const message of def.warnings) ctx.bus.emit({ type: 'warning', task: task.name, message });
  for (const skill of def.preloadedSkills) {
    ctx.bus.emit({ type: 'skill.loaded', task: task.name, agent: 'worker', sessionId: row.id, skill: skill.name, how: 'mention' });
  }

  const state = CommanderState.fromHistory(history);
  const closers: (() => void)[] = [];
  const finishing = directFinishingTools(task, state, { store, runId: ctx.runId, upstream });
  const base = await agentSessionDeps(ctx, task.name, def, row, (close) => closers.push(close), finishing);
  let closedOutcome: (TaskOutcome & { stored?: boolean }) | undefined;
  const close = async (outcome: TaskOutcome, tx: Parameters<NonNullable<SessionDeps['closeInStep']>>[0]): Promise<TaskOutcome & { stored?: boolean }> => {
    await tx.store.sessions.setStatus(row.id, 'completed');
    tx.emit({ type: 'session.finished', task: task.name, agent: 'worker', sessionId: row.id, status: 'completed' });
    return steps.end && (await steps.end(outcome, tx)) ? { ...outcome, stored: true } : outcome;
  };
  const deps: SessionDeps = {
    ...base,
    isDone: () => state.completion !== undefined,
    closeInStep: async (tx) => {
      closedOutcome = await close(outcomeOf(state, task, WHO), tx);
    },
    onToolResult: (call, result) => state.observe(call, result),
  };
  const session = await AgentSession.restore(deps, history);
  let outcome: Awaited<ReturnType<typeof session.run>>;
  try {
    outcome = await session.run();
  } finally {
    for (const closeServer of closers.splice(0)) closeServer();
  }
  if (outcome.kind === 'done' && outcome.closed && closedOutcome) return closedOutcome;
  if (outcome.kind === 'answer') {
    const needs = [...(task.output ? ['submit_output'] : []), ...(task.router.length > 0 ? ['a route in task_complete'] : [])];
    if (needs.length === 0) {
      // Nothing to submit and no route to choose: the worker's final answer is the task's result.
      const text = outcome.text;
      const answered: TaskOutcome = { status: 'completed', summary: text };
      return durableStep(store, ctx.bus, async (tx) => {
        await tx.store.sessions.setAnswer(row.id, text);
        return close(answered, tx);
      });
    }
    outcome = { kind: 'failed', reason: `the worker answered without calling task_complete; this task needs ${needs.join(' and ')}` };
  }
  const status = outcome.kind === 'failed' ? 'failed' : 'completed';
  await store.sessions.setStatus(row.id, status);
  ctx.bus.emit({ type: 'session.finished', task: task.name, agent: 'worker', sessionId: row.id, status });
  return outcome.kind === 'failed' ? { status: 'failed', error: outcome.reason } : outcomeOf(state, task, WHO);
}
