// `squadron plan`: what a run would do, without calling a model or executing a tool. For each task it
// builds the same commander and agent definitions, prompts and first-turn tool lists that `run` uses
// (the very same functions), and measures the first request each would send. A direct task shows its
// worker alone, with the objective as its first message and the finishing tools it holds.

import { addMemoryTools, missionSlots } from '../memory/index.js';
import type { Budget, MissionGraph, ModelRef, TaskSpec } from '../../config/graph.js';
import { contextPolicy, policyModel, type PolicySettings } from '../context/policy.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../model/models.js';
import { renderObjective, type ObjectiveItem } from '../../config/objective.js';
import { datasetItems } from '../../config/datasetItems.js';
import { taskEdges } from '../../config/taskEdges.js';
import { buildAgentToolbox } from '../agents/agentToolbox.js';
import { commanderSystemPrompt, commanderToolset, type UpstreamResult } from '../agents/commander.js';
import { datasetNextDefinition, datasetWalk } from '../iteration/sequential.js';
import { plannedDigest } from '../agents/digest.js';
import { CommanderState } from '../kernel/commanderState.js';
import { commanderTools, type AgentDirectory } from '../agents/commanderTools.js';
import { commanderAgents, resultLimit, workerDefinition, type AgentDefinition, type ResultLimit } from '../agents/definitions.js';
import { createToolIndex, oneLine, PAGE_SIZE } from '../discovery/index.js';
import { directFinishingTools, directWorkerDefinition } from '../agents/direct.js';
import { addFinishingTools } from '../agents/agentPool.js';
import type { SessionTool } from '../tools/toolbox.js';
import type { ToolDefinition } from '../providers/types.js';
import { ancestorsOf } from '../schedule/taskGraph.js';
import { reasoningOnTheWire } from '../model/reasoningWire.js';
import { firstCallBound } from './firstCall.js';
import type { RequestBytes, AgentPlan, ToolDefinitionJson, ContextPlan, ToolResponsePlan, CommanderPlan, IteratorPlan, UpstreamDigestPlan, TaskPlan, BudgetPlan, MissionPlan, PlanRequest } from './planDocument.js';

export type { RequestBytes, AgentPlan, ToolDefinitionJson, ContextPlan, ToolResponsePlan, CommanderPlan, IteratorPlan, UpstreamDigestPlan, TaskPlan, BudgetPlan, MissionPlan, PlanRequest } from './planDocument.js';

export async function planMission(req: PlanRequest): Promise<MissionPlan> {
  const tasks: TaskPlan[] = [];
  for (const task of req.mission.tasks) {
    if (req.task !== undefined && task.name !== req.task) continue;
    tasks.push(await planTask(req, task));
  }
  const plan: MissionPlan = { mission: req.mission.name, tasks, edges: taskEdges(req.mission), budget_warnings: [] };
  if (req.mission.budget) plan.budget = budgetPlan(req.mission.budget);
  for (const task of tasks) {
    if (plan.budget) plan.budget_warnings.push(...budgetShort(plan.budget, task, 'the mission'));
    if (task.budget) plan.budget_warnings.push(...budgetShort(task.budget, task, `task ${task.name}`));
  }
  return plan;
}

/** A budget below what the task's first call reserves, in words (none when it fits). */
function budgetShort(budget: BudgetPlan, task: TaskPlan, whose: string): string[] {
  // A direct task has no commander: its worker makes the first call.
  const bound = task.commander?.first_call ?? task.agents[0]?.first_call;
  if (bound === undefined) return [];
  const short: string[] = [];
  if (budget.tokens !== undefined && budget.tokens < bound.tokens) short.push(`${budget.tokens.toLocaleString('en-US')} tokens < ${bound.tokens.toLocaleString('en-US')}`);
  if (budget.dollars !== undefined && bound.dollars > 0 && budget.dollars < bound.dollars) short.push(`$${budget.dollars} < $${bound.dollars.toFixed(4)}`);
  if (short.length === 0) return [];
  return [`the budget of ${whose} (${short.join(', ')}) is smaller than what the first call of task ${task.name} reserves: the run stops before that call`];
}

function budgetPlan(b: Budget): BudgetPlan {
  const out: BudgetPlan = {};
  if (b.tokens !== undefined) out.tokens = b.tokens;
  if (b.dollars !== undefined) out.dollars = b.dollars;
  if (b.durationMs !== undefined) out.duration_ms = b.durationMs;
  return out;
}

async function planTask(req: PlanRequest, task: TaskSpec): Promise<TaskPlan> {
  const iteration = planIteration(req, task);
  const rendered = renderObjective(task, req.graph.variables, req.inputs, iteration?.item);
  const objective = rendered.text ?? `(objective cannot be rendered: ${rendered.diagnostics.map((d) => d.message).join('; ')})`;
  const upstream = placeholderUpstream(req, task);
  const digests = upstreamDigests(req, upstream);
  const shared = {
    name: task.name,
    ...(iteration !== undefined ? { iterator: iteration.plan } : {}),
    ...(digests.length > 0 ? { upstream_digests: digests } : {}),
    depends_on: [...task.dependsOn],
    routes: task.router.map((r) => ({ target: r.target, condition: r.condition })),
    send_to: [...task.sendTo],
  };
  const budget = task.budget ? { budget: budgetPlan(task.budget) } : {};
  if (task.direct) {
    // The worker alone: its first request carries the objective and the finishing tools, as runDirect sends it.
    const def = await directWorkerDefinition(req, task, objective, upstream);
    const finishing = directFinishingTools(task, new CommanderState(), { store: undefined as never, runId: '', upstream });
    return { ...shared, work_sources: def ? [def.name] : [], direct: true, agents: def ? [await planAgent(req, def, { finishing, objective })] : [], ...budget };
  }
  const agents = await commanderAgents({ graph: req.graph, mission: req.mission, tools: req.tools, overrides: req.overrides }, task, objective);
  // A sequential iterator's one commander walks the items with dataset_next, as the run gives it.
  const walk = task.iterator !== undefined && !task.iterator.parallel ? datasetWalk(req.mission, task, iteration?.plan.items ?? '(as many as given)') : undefined;
  const system = commanderSystemPrompt({ mission: req.mission, task, agents, upstream, ...(walk ? { dataset: walk } : {}) });
  const directory: AgentDirectory = {
    names: () => agents.map((a) => a.name),
    call: () => Promise.reject(new Error('plan never calls agents')),
    ask: () => Promise.reject(new Error('plan never calls agents')),
  };
  // The query tool reads nothing while planning: it is listed only (no store behind it).
  const orchestration = commanderTools({ agents: directory, state: new CommanderState(), output: task.output, routes: task.router });
  const toolDefs = commanderToolset(orchestration, { store: undefined as never, runId: '', upstream }).map((t) => t.definition);
  if (walk) toolDefs.unshift(datasetNextDefinition(walk.name, walk.total));
  const model = req.mission.commander.model;
  const commander: CommanderPlan = {
    model: `${model.block}.${model.key}`,
    api_model: model.apiModel,
    tools: toolDefs.map((d) => d.name),
    request_bytes: requestBytes(system, toolDefs, objective),
    first_call: roundedSpend(firstCallBound(req.graph, model, req.mission.commander.reasoning, system, toolDefs, objective)),
    tool_response: toolResponsePlan(resultLimit(req.mission.commander.toolResponse, 'commander')),
    context: contextPlan(req.graph, model, { settings: req.mission.commander.context, via: 'commander' }),
  };
  if (req.mission.commander.reasoning) {
    commander.reasoning = req.mission.commander.reasoning;
    commander.reasoning_sent = reasoningOnTheWire(req.graph, model, req.mission.commander.reasoning);
  }
  if (req.showPrompts) {
    commander.system_prompt = system;
    commander.first_message = objective;
    commander.tool_definitions = toolDefs.map(toolDefinitionJson);
  }
  const agentPlans: AgentPlan[] = [];
  for (const def of agents) agentPlans.push(await planAgent(req, def));
  return { ...shared, work_sources: agents.map((a) => a.name), commander, agents: agentPlans, ...budget };
}

/** `direct`: a direct task's worker, whose first request also holds the objective and the finishing tools. */
async function planAgent(req: PlanRequest, def: AgentDefinition, direct?: { finishing: SessionTool[]; objective: string }): Promise<AgentPlan> {
  const toolbox = await buildAgentToolbox(
    {
      resolver: req.tools,
      toolContext: () => {
        throw new Error('plan never executes tools');
      },
      stored: [],
      onLoaded: async () => {},
    },
    def,
  );
  // As a run gives them (runtime/agents/agentPool.ts): the memory tools, then the finishing tools.
  addMemoryTools(toolbox, missionSlots(req.graph, req.mission, 'plan'), () => {
    throw new Error('plan never executes tools');
  });
  if (direct) addFinishingTools(toolbox, direct.finishing);
  const toolDefs = toolbox.definitionsForTurn();
  const plan: AgentPlan = {
    name: def.name,
    model: `${def.model.block}.${def.model.key}`,
    api_model: def.model.apiModel,
    discovery: def.discovery !== undefined,
    tools: def.given.tools,
    skills: def.given.skills,
    preloaded_skills: def.preloadedSkills.map((s) => s.name),
    first_request_tools: toolDefs.map((d) => d.name),
    request_bytes: requestBytes(def.systemPrompt, toolDefs, direct?.objective ?? ''),
    tool_response: toolResponsePlan(def.toolResponse),
    context: contextPlan(req.graph, def.model, def.context),
    warnings: def.warnings,
    tool_hints: Object.fromEntries(def.tools.flatMap((t) => (t.hints && t.hints.length > 0 ? [[t.ref, [...t.hints]]] : []))),
  };
  if (direct) plan.first_call = roundedSpend(firstCallBound(req.graph, def.model, def.reasoning, def.systemPrompt, toolDefs, direct.objective));
  if (def.reasoning) {
    plan.reasoning = def.reasoning;
    plan.reasoning_sent = reasoningOnTheWire(req.graph, def.model, def.reasoning);
  }
  if (req.showPrompts) {
    plan.system_prompt = def.systemPrompt;
    if (direct) plan.first_message = direct.objective;
    plan.tool_definitions = toolDefs.map(toolDefinitionJson);
  }
  return plan;
}

function contextPlan(graph: MissionGraph, ref: ModelRef, settings: PolicySettings): ContextPlan {
  const policy = contextPolicy(settings, policyModel(graph, ref, DEFAULT_MAX_OUTPUT_TOKENS));
  const { compaction, pruning } = policy;
  const plan: ContextPlan = {
    window: policy.window,
    window_via: policy.windowVia,
    compaction: { token_limit: compaction.tokenLimit, turn_retention: compaction.turnRetention, summarize: compaction.summarize, via: compaction.via },
  };
  if (pruning) plan.pruning = { prune_on: pruning.pruneOn, prune_to: pruning.pruneTo, via: pruning.via };
  return plan;
}

function toolResponsePlan(limit: ResultLimit): ToolResponsePlan {
  return { max_tokens: limit.maxTokens, via: limit.via };
}

function toolDefinitionJson(d: ToolDefinition): ToolDefinitionJson {
  return { name: d.name, description: d.description, input_schema: d.inputSchema, ...(d.strict ? { strict: true as const } : {}) };
}

/**
 * A task's iterator as plan shows it, and the item its objective is rendered with: item 0 when the
 * items are known, else (parallel) a placeholder object that reads `<item.field>` for each schema field.
 */
function planIteration(req: Pick<PlanRequest, 'mission' | 'inputs'>, task: TaskSpec): { plan: IteratorPlan; item?: ObjectiveItem } | undefined {
  const it = task.iterator;
  if (it === undefined) return undefined;
  const dataset = req.mission.datasets.find((d) => d.name === it.dataset);
  const given = dataset === undefined ? undefined : datasetItems(dataset, req.inputs);
  // plan's placeholder for a list input not given is the text "<inputs.x>": the count is unknown then.
  // (as it is for a dataset a task fills while the run goes)
  const unknownCount = (dataset?.source.kind === 'input' && !Array.isArray(req.inputs[dataset.source.input])) || dataset?.source.kind === 'filled';
  const plan: IteratorPlan = {
    dataset: it.dataset,
    mode: it.parallel ? 'parallel' : 'sequential',
    items: unknownCount || given === undefined ? null : given.items.length,
    item_problems: unknownCount ? [] : (given?.problems ?? []),
  };
  if (!it.parallel) return { plan };
  Object.assign(plan, { concurrency_limit: it.concurrencyLimit, max_retries: it.maxRetries, start_delay_ms: it.startDelayMs, smoketest: it.smoketest, on_failure: it.onFailure });
  const first = unknownCount ? undefined : given?.items[0];
  if (first !== undefined) return { plan: { ...plan, shown_item: 0 }, item: { value: first, index: 0 } };
  const placeholder = Object.fromEntries((dataset?.schema ?? []).map((f) => [f.name, `<item.${f.name}>`]));
  return { plan, item: { value: placeholder, index: 0 } };
}

export function requestBytes(system: string, tools: readonly ToolDefinition[], firstMessage: string): RequestBytes {
  const systemBytes = Buffer.byteLength(system, 'utf8');
  const toolBytes = tools.length > 0 ? Buffer.byteLength(JSON.stringify(tools.map(toolDefinitionJson)), 'utf8') : 0;
  const messageBytes = Buffer.byteLength(firstMessage, 'utf8');
  const total = systemBytes + toolBytes + messageBytes;
  return { system: systemBytes, tools: toolBytes, messages: messageBytes, total, estimated_tokens: Math.ceil(total / 4) };
}

/**
 * Upstream results are only known at run time; plan shows where they will appear. A routed task may
 * be activated by any of its routers, so every one of them is shown.
 */
function placeholderUpstream(req: Pick<PlanRequest, 'mission' | 'inputs'>, task: TaskSpec): UpstreamResult[] {
  const { mission } = req;
  const activators = new Map<string, string[]>();
  for (const t of mission.tasks) {
    for (const target of [...t.router.map((r) => r.target), ...t.sendTo]) activators.set(target, [...(activators.get(target) ?? []), t.name]);
  }
  return ancestorsOf(mission.tasks, task.name, activators).map((t) => {
    const result: UpstreamResult = { name: t.name, summary: `(the summary of task "${t.name}", known when it completes)` };
    // An iterated task reaches it as a digest of its items, as in a run.
    if (t.iterator !== undefined) result.items = plannedDigest(t.name, planIteration(req, t)?.plan.items ?? null, t.output).digest;
    return result;
  });
}

/** The digest of each iterated upstream task, as large as plan can tell. */
function upstreamDigests(req: Pick<PlanRequest, 'mission' | 'inputs'>, upstream: readonly UpstreamResult[]): UpstreamDigestPlan[] {
  return upstream.flatMap((u) => {
    const spec = req.mission.tasks.find((t) => t.name === u.name);
    if (spec?.iterator === undefined) return [];
    const items = planIteration(req, spec)?.plan.items ?? null;
    const { bytes, maxBytes } = plannedDigest(u.name, items, spec.output);
    return [{ task: u.name, items, bytes, max_bytes: maxBytes }];
  });
}

export interface ListedTool {
  ref: string;
  name: string;
  group: string;
  description: string;
  via: string;
}

export interface RankedListedTool extends Omit<ListedTool, 'via'> {
  score: number;
}

/** The worker's authorized tools for one task, exactly as a run would build them. */
export async function workerTools(req: Omit<PlanRequest, 'showPrompts' | 'task'>, task: TaskSpec): Promise<{ tools: ListedTool[]; search(query: string, group?: string, page?: number): { results: RankedListedTool[]; total: number; next_page?: number } }> {
  const rendered = renderObjective(task, req.graph.variables, req.inputs, planIteration(req, task)?.item);
  const def = await workerDefinition({ graph: req.graph, mission: req.mission, task, objective: rendered.text ?? '', tools: req.tools, overrides: req.overrides });
  const specs = def?.tools ?? [];
  const via = new Map((def?.given.tools ?? []).map((t) => [t.ref, t.via]));
  const index = def?.discovery?.index ?? createToolIndex(specs);
  return {
    tools: specs.map((s) => ({ ref: s.ref, name: s.apiName, group: s.group, description: s.description, via: via.get(s.ref) ?? 'task' })),
    search(query, group, page = 1) {
      // The same normalization as search_tools: a blank query with no group matches nothing.
      const q = query.trim();
      const g = group?.trim() || undefined;
      const ranked = q !== '' || g !== undefined ? index.rank(q, g) : [];
      const start = (page - 1) * PAGE_SIZE;
      const results = ranked.slice(start, start + PAGE_SIZE).map(({ tool, score }) => ({
        ref: tool.ref,
        name: tool.apiName,
        group: tool.group,
        description: oneLine(tool.description),
        score: Number(score.toFixed(4)),
      }));
      return { results, total: ranked.length, ...(start + PAGE_SIZE < ranked.length ? { next_page: page + 1 } : {}) };
    },
  };
}

function roundedSpend(spend: { tokens: number; dollars: number }): { tokens: number; dollars: number } {
  return { tokens: spend.tokens, dollars: Number(spend.dollars.toFixed(6)) };
}
