// Builds the agents a task's commander can call: the dynamic `worker` materialized from the task's
// declared tools, and the declared agents from their blocks. A definition is pure data plus the
// authorized ToolSpecs; `plan` renders the same definitions that `run` executes.

import type { ApprovalRule, ToolRefWithProvenance, AgentSpec, ContextSettings, LoopGuard, Mission, MissionGraph, ModelRef, Provenance, Reasoning, Skill, TaskSpec, WorkerSpec } from '../../config/graph.js';
// The discovery index and its thesaurus (a ~0.5 MB table) load only for a worker that discovers its tools.
import { shouldUseDiscovery } from '../discovery/definitions.js';
import type { ToolIndex } from '../discovery/index.js';
import type { GivenSkill, GivenTool } from '../kernel/events.js';
import { renderPrompt, type TemplateScope } from '../../core/promptTemplates.js';
import type { SelectionOverrides, ToolResolver } from './runContext.js';
import { findSkillMentions, objectiveMentionText, renderSkillCatalog } from '../skills/index.js';
import { fillSkillPrompt } from '../skills/template.js';
import { serverInstructionsSection } from '../tools/mcp/instructions.js';
import { isToolOfMcpAll, mcpPromptRef } from '../../config/toolRefs.js';
import type { ToolSpec } from '../tools/types.js';
import { DEFAULT_TOOL_RESPONSE_MAX_TOKENS } from '../../config/stages/toolResponse.js';
import { approvalOf } from '../../config/stages/approval.js';

/** Bytes of system prompt the skill catalog may take before it is trimmed. */
export const SKILL_CATALOG_BUDGET = 4096;

export interface AgentDefinition {
  name: string;
  /** How the commander's prompt describes the agent. */
  description: string;
  model: ModelRef;
  reasoning?: Reasoning;
  maxTurns?: number;
  systemPrompt: string;
  /** Every tool the agent may call, in declared order (`group` set from its toolset when it came from one). */
  tools: ToolSpec[];
  /** The tool refs it was given, before `mcp.<server>.all` is expanded: re-resolved when a server changes its tools. */
  declaredTools: GivenTool[];
  /** Skills it may load with load_skill. */
  skills: Skill[];
  /** Skills loaded up front because the objective mentions them (`$name`). */
  preloadedSkills: Skill[];
  /** Present when the agent discovers its tools progressively instead of receiving every schema. */
  discovery?: { alwaysLoad: string[]; index: ToolIndex };
  /** What it was given and why (shown in progress, plan, and the session.started event). */
  given: { tools: GivenTool[]; skills: GivenSkill[] };
  /** Problems found while building it (an ambiguous `$mention`, an unavailable tool). */
  warnings: string[];
  /** Above this many tokens a tool result is stored and previewed, and where the figure comes from. */
  toolResponse: ResultLimit;
  /** Its compaction and pruning blocks, and the block they come from. */
  context: { settings?: ContextSettings; via: 'agent' | 'agent_defaults' };
  /** Runaway guards: the agent's own, else agent_defaults' (the defaults apply when neither sets one). */
  loopGuard?: LoopGuard;
  /** Which of its tools wait for the operator's approval, and why: the first rule covering a ref applies. */
  approvalRules?: ApprovalRule[];
}

export interface ResultLimit {
  maxTokens: number;
  via: 'agent' | 'agent_defaults' | 'commander' | 'default';
}

/** The limit of a session whose own block may set one (`via`), else the default. */
export function resultLimit(own: { maxTokens: number } | undefined, via: ResultLimit['via']): ResultLimit {
  return own === undefined ? { maxTokens: DEFAULT_TOOL_RESPONSE_MAX_TOKENS, via: 'default' } : { maxTokens: own.maxTokens, via };
}

export interface DefinitionContext {
  graph: MissionGraph;
  mission: Mission;
  task: TaskSpec;
  objective: string;
  tools: ToolResolver;
  overrides: SelectionOverrides;
  /**
   * A direct task: the worker runs the task itself. Its prompt then carries this contract (upstream
   * results, output, routes: runtime/agents/direct.ts) instead of the objective, which becomes its
   * first user message.
   */
  direct?: TemplateScope;
}

/**
 * The worker's tool list after the caller's `--tool` / `--no-tools` flags. `--tool mcp.s.t` keeps
 * that one tool of a worker authorized through `mcp.s.all` (with the `.all` ref's provenance), so a
 * restriction can name any tool the worker may call. Declared order is kept.
 */
export function workerToolSelection(worker: WorkerSpec, overrides: SelectionOverrides): GivenTool[] {
  if (overrides.noTools) return [];
  if (!overrides.tools) return worker.tools.map((t) => ({ ref: t.ref, via: t.via }));
  const wanted = new Set(overrides.tools);
  const out: GivenTool[] = [];
  for (const tool of worker.tools) {
    if (wanted.has(tool.ref)) out.push({ ref: tool.ref, via: tool.via });
    else for (const ref of overrides.tools) if (isToolOfMcpAll(tool.ref, ref)) out.push({ ref, via: tool.via });
  }
  return out;
}

/** The worker's skills after `--skill` / `--no-skills`. */
export function workerSkillSelection(worker: WorkerSpec, overrides: SelectionOverrides): GivenSkill[] {
  if (overrides.noSkills) return [];
  const skills: GivenSkill[] = worker.skills.map((s) => ({ name: s.name, via: s.via }));
  for (const name of overrides.skills) if (!skills.some((s) => s.name === name)) skills.push({ name, via: 'cli' });
  return skills;
}

/**
 * Resolves declared refs one by one so every expanded tool (`mcp.x.all` → its tools) keeps the
 * provenance of the ref that brought it; a tool from a toolset is grouped under that toolset.
 */
export async function resolveGivenTools(resolver: ToolResolver, given: readonly GivenTool[]): Promise<{ tools: ToolSpec[]; given: GivenTool[] }> {
  const tools: ToolSpec[] = [];
  const out: GivenTool[] = [];
  const seen = new Set<string>();
  const byApiName = new Map<string, GivenTool>();
  // Resolved together so MCP servers start in parallel; assembled in declared order.
  const resolved = await Promise.all(given.map((entry) => resolver.resolve([entry.ref])));
  for (const [i, entry] of given.entries()) {
    for (const spec of resolved[i]!) {
      if (seen.has(spec.ref)) continue;
      seen.add(spec.ref);
      const clash = byApiName.get(spec.apiName);
      if (clash) throw new ToolNameCollision(spec.apiName, clash, { ref: spec.ref, via: entry.via });
      byApiName.set(spec.apiName, { ref: spec.ref, via: entry.via });
      tools.push(entry.via.startsWith('toolset:') ? { ...spec, group: entry.via.slice('toolset:'.length) } : spec);
      out.push({ ref: spec.ref, via: entry.via });
    }
  }
  return { tools, given: out };
}

/**
 * Two tools of one agent that share an API name (`mcp.x.a_b` and `mcp.x_a.b`): the model could call
 * only one of them, so the toolbox is refused rather than one offered under the other's name.
 */
export class ToolNameCollision extends Error {
  constructor(apiName: string, first: GivenTool, second: GivenTool) {
    super(
      `tools ${first.ref} (${first.via}) and ${second.ref} (${second.via}) would both be called "${apiName}" by the model; ` +
        'give the agent only one of them, or rename an MCP server so their names differ (squadron validate reports this as REF015)',
    );
    this.name = 'ToolNameCollision';
  }
}

export async function workerDefinition(ctx: DefinitionContext): Promise<AgentDefinition | undefined> {
  const worker = ctx.task.worker;
  if (!worker) return undefined;
  const declaredTools = workerToolSelection(worker, ctx.overrides);
  const { tools, given } = await resolveGivenTools(ctx.tools, declaredTools);
  const givenSkills = workerSkillSelection(worker, ctx.overrides);
  const warnings: string[] = [];
  const preloaded: Skill[] = [];
  if (!ctx.overrides.noSkills) {
    // Only what the config author wrote counts: a `$name` inside an interpolated input is data.
    const mentions = findSkillMentions(objectiveMentionText(ctx.task.objective), ctx.graph.skills);
    warnings.push(...mentions.warnings);
    for (const skill of mentions.matched) {
      preloaded.push(skill);
      if (!givenSkills.some((s) => s.name === skill.name)) givenSkills.push({ name: skill.name, via: 'task' });
    }
  }
  const named = await resolveGivenSkills(ctx, givenSkills);
  warnings.push(...named.warnings);
  const skills = named.skills.filter((s) => !preloaded.includes(s));
  // Nothing to discover (e.g. --no-tools): no search tools and no contract claiming "0 tools".
  const useDiscovery = tools.length > 0 && shouldUseDiscovery(tools.length, { discovery: worker.discovery, threshold: worker.discoveryThreshold });
  // One index serves the prompt's group list and the session's search_tools.
  const discovery = useDiscovery ? await import('../discovery/index.js') : undefined;
  const index = discovery?.createToolIndex(tools);
  // Rendered when first read (the worker's session opens): a fan-out's commanders each hold a
  // worker definition, and one that finishes without calling its worker never needs the prompt.
  let systemPrompt: string | undefined;
  const def: AgentDefinition = {
    name: 'worker',
    description: "This task's own agent, holding exactly the tools the task declares.",
    model: worker.model,
    get systemPrompt() {
      return (systemPrompt ??= renderPrompt('worker', {
        task: ctx.task.name,
        mission: ctx.mission.name,
        missionDescription: ctx.mission.description,
        objective: ctx.direct ? undefined : ctx.objective,
        direct: ctx.direct,
        discovery: discovery && index ? discoveryContract(discovery, ctx.graph, index) : undefined,
        serverInstructions: serverInstructionsSection(tools),
        skills: skillsSection(skills, preloaded),
      }));
    },
    tools,
    declaredTools,
    skills,
    preloadedSkills: preloaded,
    given: { tools: given, skills: named.given },
    warnings,
    toolResponse: resultLimit(worker.toolResponse, 'agent_defaults'),
    context: worker.context === undefined ? { via: 'agent_defaults' } : { settings: worker.context, via: 'agent_defaults' },
    approvalRules: approvalRules(ctx, worker.tools, undefined),
  };
  def.given.tools = withApproval(def.given.tools, def.approvalRules ?? []);
  if (index) def.discovery = { alwaysLoad: [...worker.alwaysLoad], index };
  if (worker.reasoning) def.reasoning = worker.reasoning;
  if (worker.maxTurns !== undefined) def.maxTurns = worker.maxTurns;
  if (ctx.mission.agentDefaults?.loopGuard) def.loopGuard = ctx.mission.agentDefaults.loopGuard;
  return def;
}

export async function declaredAgentDefinition(ctx: DefinitionContext, spec: AgentSpec): Promise<AgentDefinition> {
  const { tools, given } = await resolveGivenTools(ctx.tools, spec.tools);
  const named = await resolveGivenSkills(ctx, spec.skills, spec.ownSkills);
  const { skills } = named;
  const systemPrompt = renderPrompt('agent', {
    name: spec.name,
    task: ctx.task.name,
    mission: ctx.mission.name,
    missionDescription: ctx.mission.description,
    personality: spec.personality,
    hasTools: tools.length > 0,
    skills: skillsSection(skills, []),
  });
  const def: AgentDefinition = {
    name: spec.name,
    description: spec.personality,
    model: spec.model,
    systemPrompt,
    tools,
    declaredTools: spec.tools.map((t) => ({ ref: t.ref, via: t.via })),
    skills,
    preloadedSkills: [],
    given: { tools: given, skills: named.given },
    warnings: named.warnings,
    toolResponse: resultLimit(spec.toolResponse, 'agent'),
    context: spec.context === undefined ? { via: 'agent' } : { settings: spec.context, via: 'agent' },
    approvalRules: approvalRules(ctx, spec.tools, spec.approval),
  };
  def.given.tools = withApproval(def.given.tools, def.approvalRules ?? []);
  if (spec.reasoning) def.reasoning = spec.reasoning;
  if (spec.maxTurns !== undefined) def.maxTurns = spec.maxTurns;
  const loopGuard = { ...ctx.mission.agentDefaults?.loopGuard, ...spec.loopGuard };
  if (Object.keys(loopGuard).length > 0) def.loopGuard = loopGuard;
  return def;
}

/** Worker first (when the task declares tools), then the task's declared agents in listed order. */
export async function commanderAgents(
  run: { graph: MissionGraph; mission: Mission; tools: ToolResolver; overrides: SelectionOverrides },
  task: TaskSpec,
  objective: string,
): Promise<AgentDefinition[]> {
  const ctx: DefinitionContext = { graph: run.graph, mission: run.mission, task, objective, tools: run.tools, overrides: run.overrides };
  const specs = [...run.mission.localAgents, ...run.graph.agents];
  const defs: AgentDefinition[] = [];
  const worker = await workerDefinition(ctx);
  if (worker) defs.push(worker);
  for (const name of task.agents) {
    const spec = specs.find((a) => a.name === name);
    if (spec) defs.push(await declaredAgentDefinition(ctx, spec));
  }
  return defs;
}

/**
 * The skills given by name, in order: a config skill, or a server's prompts (`mcp.<server>.prompts`
 * expands in place to one skill per prompt, each keeping the provenance of the name that brought
 * it). A server that cannot be reached is a warning; its prompts are left out.
 */
async function resolveGivenSkills(ctx: DefinitionContext, given: readonly GivenSkill[], own: readonly Skill[] = []): Promise<{ skills: Skill[]; given: GivenSkill[]; warnings: string[] }> {
  const skills: Skill[] = [];
  const out: GivenSkill[] = [];
  const warnings: string[] = [];
  // Resolved together so servers start in parallel; assembled in declared order.
  const resolved = await Promise.all(given.map((g) => (mcpPromptRef(g.name) ? promptSkillsOf(ctx.tools, g.name) : undefined)));
  const add = (skill: Skill, via: Provenance): void => {
    if (skills.some((s) => s.name === skill.name)) return;
    skills.push(skill);
    out.push({ name: skill.name, via });
  };
  for (const [i, g] of given.entries()) {
    const prompts = resolved[i];
    if (prompts === undefined) {
      // The agent's own skill blocks first (a global skill cannot share their names).
      const skill = own.find((s) => s.name === g.name) ?? ctx.graph.skills.find((s) => s.name === g.name);
      if (skill) add(skill, g.via);
    } else if (prompts.ok) {
      for (const skill of prompts.skills) add(skill, g.via);
    } else {
      warnings.push(`skill ${g.name} is unavailable: ${prompts.error}`);
    }
  }
  return { skills, given: out, warnings };
}

async function promptSkillsOf(resolver: ToolResolver, name: string): Promise<{ ok: true; skills: Skill[] } | { ok: false; error: string }> {
  if (!resolver.promptSkills) return { ok: false, error: 'MCP prompts are not available here' };
  return resolver.promptSkills(name);
}

/** The prompt's skills section: those loaded up front in full, then the catalog of the others. */
export function skillsSection(skills: readonly Skill[], preloaded: readonly Skill[]): string | undefined {
  const parts: string[] = [];
  for (const skill of preloaded) parts.push(fillSkillPrompt('loaded', { name: skill.name, instructions: skill.instructions }));
  const catalog = renderSkillCatalog(skills, SKILL_CATALOG_BUDGET).text;
  if (catalog) parts.push(catalog);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function discoveryContract(discovery: typeof import('../discovery/index.js'), graph: MissionGraph, index: ToolIndex): string {
  const descriptions: Record<string, string> = {};
  for (const toolset of graph.toolsets) if (toolset.description) descriptions[toolset.name] = toolset.description;
  for (const server of graph.mcpServers) if (server.description) descriptions[`mcp.${server.name}`] = server.description;
  return discovery.renderDiscoveryContract(discovery.contractGroups(index, descriptions));
}

/**
 * An agent's approval rules, strongest first: the routes that brought its tools (a tool block or a
 * toolset with approval = true), its own approval list, the task's list, and every custom tool whose
 * block says approval = true (a skill may unlock one later). Any rule covering a tool applies.
 */
function approvalRules(ctx: DefinitionContext, tools: readonly ToolRefWithProvenance[], own: readonly ApprovalRule[] | undefined): ApprovalRule[] {
  return [
    ...tools.flatMap((t) => (t.approval === undefined ? [] : [{ ref: t.ref, via: t.approval }])),
    ...(own ?? []),
    ...(ctx.task.approval ?? []),
    ...ctx.graph.customTools.filter((t) => t.approval).map((t) => ({ ref: t.ref, via: 'tool' as const })),
  ];
}

function withApproval(tools: readonly GivenTool[], rules: readonly ApprovalRule[]): GivenTool[] {
  return tools.map((t) => {
    const approval = approvalOf(t.ref, [], rules);
    return approval === undefined ? t : { ...t, approval };
  });
}
