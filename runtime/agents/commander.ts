// The commander of one task: renders its prompt (available agents, upstream results, output and
// routing contract), gives it the orchestration tools only, and runs its session until task_complete
// succeeds or the session fails. Its decisions are read back from the conversation, so a resumed
// commander picks up exactly where it stopped.

import type { TaskSpec } from '../../config/graph.js';
import { renderPrompt, type TemplateScope } from '../../core/promptTemplates.js';
import { openTaskSession } from './taskSession.js';
import type { RunContext } from './runContext.js';
import { AgentPool } from './agentPool.js';
import { commanderTools } from './commanderTools.js';
import { CommanderState } from '../kernel/commanderState.js';
import { normalizeOutput } from './outputValidation.js';
import { resultLimit, type AgentDefinition } from './definitions.js';
import { addResultTools } from '../results/index.js';
import { AgentSession } from '../session/session.js';
import type { SessionDeps } from '../session/sessionTypes.js';
import type { StepTx } from '../kernel/durableStep.js';
import { digestText } from './digest.js';
import { queryTaskOutputTool, type QuerySource } from './queryTaskOutput.js';
import type { TaskOutcome, UpstreamResult } from './taskResults.js';

export type { TaskOutcome, UpstreamResult } from './taskResults.js';
import { SessionContext } from '../context/sessionContext.js';
import { contextPolicy } from '../context/policy.js';
import { Toolbox, type SessionTool } from '../tools/toolbox.js';

export interface CommanderPromptInput {
  mission: { name: string; description?: string };
  task: TaskSpec;
  agents: readonly AgentDefinition[];
  upstream: readonly UpstreamResult[];
  /** A sequential iterator: the dataset the commander walks with dataset_next (plan may not know the count). */
  dataset?: DatasetWalk;
}

/** What a walking commander is told of its dataset: name, item count, description and item fields (as Go's agents are). */
export interface DatasetWalk {
  name: string;
  total: number | string;
  description?: string;
  /** `id (integer, required): ticket id`, one per field of the dataset's schema. */
  fields?: string[];
}

/** What a sequential iterator adds to its one commander: the dataset_next tool over the commander's own state. */
export interface CommanderExtension {
  dataset: DatasetWalk;
  tools(state: CommanderState): SessionTool[];
}

export function commanderSystemPrompt(input: CommanderPromptInput): string {
  const { task } = input;
  return renderPrompt('commander', {
    task: task.name,
    mission: input.mission.name,
    missionDescription: input.mission.description,
    agents: input.agents.map((a) => ({
      name: a.name,
      description: a.description,
      toolNames: a.name === 'worker' ? a.tools.map((t) => t.apiName).join(', ') || '(none)' : undefined,
    })),
    hasWorker: input.agents.some((a) => a.name === 'worker'),
    upstream: upstreamSection(input.upstream),
    // The fields themselves are in submit_output's schema; the prompt only says that output is due.
    output: task.output !== undefined,
    dataset: input.dataset ? { ...input.dataset, fields: input.dataset.fields?.join('; ') } : undefined,
    routes: task.router.length > 0 ? { options: task.router.map((r) => ({ target: r.target, condition: r.condition })) } : undefined,
  });
}

/** The upstream results as a prompt lists them (the commander's, or a direct worker's). */
export function upstreamSection(upstream: readonly UpstreamResult[]): TemplateScope | undefined {
  if (upstream.length === 0) return undefined;
  return {
    tasks: upstream.map((u) => ({
      name: u.name,
      summary: u.summary,
      output: u.output === undefined ? undefined : JSON.stringify(u.output),
      digest: u.items === undefined ? undefined : digestText(u.name, u.items),
    })),
  };
}

/**
 * The commander's tools: the orchestration ones, with query_task_output before submit_output and
 * task_complete when there are upstream results to read (an iterated upstream's items are not all in
 * the prompt). `plan` lists the same.
 */
export function commanderToolset(tools: SessionTool[], source: QuerySource): SessionTool[] {
  if (source.upstream.length === 0) return tools;
  const at = tools.findIndex((t) => t.ref === 'submit_output' || t.ref === 'task_complete');
  return [...tools.slice(0, at), queryTaskOutputTool(source), ...tools.slice(at)];
}

/**
 * Writes the caller makes around the commander, folded into the commander's own commits: `begin` with
 * the session's opening (the item marked running), `end` with the commit that stores the completing
 * turn's results (the item's outcome). `end` is given the outcome and returns whether it stored it;
 * when the session ends any other way, the caller stores the outcome itself after runCommander returns.
 */
export interface CommanderSteps {
  begin?: (tx: StepTx) => Promise<void>;
  end?: (outcome: TaskOutcome, tx: StepTx) => Promise<boolean>;
}

export async function runCommander(
  ctx: RunContext,
  task: TaskSpec,
  agents: readonly AgentDefinition[],
  upstream: readonly UpstreamResult[],
  objective: string,
  extension?: CommanderExtension,
  steps: CommanderSteps = {},
): Promise<TaskOutcome & { state?: CommanderState; stored?: boolean }> {
  const { store, mission } = ctx;
  const model = mission.commander.model;
  const systemPromptOf = (): string => commanderSystemPrompt({ mission, task, agents, upstream, ...(extension ? { dataset: extension.dataset } : {}) });
  const opened = await openTaskSession(
    ctx,
    { task: task.name, agent: 'commander', role: 'commander', model: model.apiModel, systemPrompt: systemPromptOf, tools: [], skills: [], discovery: false, objective },
    steps.begin,
  );
  const { row, history } = opened;

  const pool = new AgentPool(ctx, task, agents, row.id);
  const state = CommanderState.fromHistory(history);
  const orchestration = commanderTools({ agents: pool, state, output: task.output, routes: task.router });
  if (extension) orchestration.unshift(...extension.tools(state));
  const toolbox = new Toolbox(commanderToolset(orchestration, { store, runId: ctx.runId, upstream }));
  const limit = resultLimit(mission.commander.toolResponse, 'commander');
  await addResultTools(toolbox, { store, runId: ctx.runId, sessionId: row.id, maxTokens: limit.maxTokens });
  const sessionModel = ctx.models.sessionModel(model, mission.commander.reasoning);
  let closedOutcome: (TaskOutcome & { stored?: boolean }) | undefined;
  const policy = contextPolicy({ settings: mission.commander.context, via: 'commander' }, sessionModel);
  const deps: SessionDeps = {
    store,
    bus: ctx.bus,
    client: ctx.models.client(model),
    runId: ctx.runId,
    task: task.name,
    agent: 'commander',
    sessionId: row.id,
    model: sessionModel,
    // A session a fork cut at a turn is stored without its prompt: the fork's config renders it.
    systemPrompt: row.systemPrompt === '' ? systemPromptOf() : row.systemPrompt,
    toolbox,
    maxTurns: mission.commander.maxTurns ?? ctx.limits.commanderMaxTurns,
    resultMaxTokens: limit.maxTokens,
    context: await SessionContext.open(store, row.id, policy),
    signal: ctx.signal,
    requireToolCall: true,
    isDone: () => state.completion !== undefined,
    closeInStep: async (tx) => {
      await tx.store.sessions.setStatus(row.id, 'completed');
      tx.emit({ type: 'session.finished', task: task.name, agent: 'commander', sessionId: row.id, status: 'completed' });
      const outcome = outcomeOf(state, task);
      closedOutcome = steps.end && (await steps.end(outcome, tx)) ? { ...outcome, stored: true } : outcome;
    },
    onToolResult: (call, result) => state.observe(call, result),
    ...(ctx.operator ? { operator: ctx.operator } : {}),
  };
  const session = await AgentSession.restore(deps, history);
  if (opened.resumed) {
    ctx.bus.emit(opened.started);
    if (session.length === 0) await session.appendInstruction([{ type: 'text', text: objective }]);
  }

  let outcome: Awaited<ReturnType<typeof session.run>>;
  try {
    outcome = await session.run();
  } finally {
    pool.close();
  }
  if (outcome.kind === 'done' && outcome.closed && closedOutcome) return extension ? { ...closedOutcome, state } : closedOutcome;
  const status = outcome.kind === 'failed' ? 'failed' : 'completed';
  await store.sessions.setStatus(row.id, status);
  ctx.bus.emit({ type: 'session.finished', task: task.name, agent: 'commander', sessionId: row.id, status });

  const result: TaskOutcome = outcome.kind === 'failed' ? { status: 'failed', error: outcome.reason } : outcomeOf(state, task);
  return extension ? { ...result, state } : result;
}

/** The task's outcome from what its commander (or direct worker) decided (a session that ended `done`). */
export function outcomeOf(state: CommanderState, task: TaskSpec, who = 'the commander'): TaskOutcome {
  const completion = state.completion;
  if (!completion) return { status: 'failed', error: `${who} finished without calling task_complete` };
  if (!completion.succeed) return { status: 'failed', error: completion.reason ?? `${who} reported that the task failed` };
  const result: TaskOutcome = { status: 'completed', summary: completion.summary };
  if (state.hasOutput) result.output = task.output ? normalizeOutput(task.output, state.output) : state.output;
  if (completion.route !== undefined && completion.route !== 'none') result.route = completion.route;
  return result;
}
