// Stage 6: `mission` blocks — inputs, mission-scoped agents, the commander, agent_defaults, the
// mission's agent list, then each task, then the graph rules over all tasks of the mission.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt, type Range } from '../hcl/diagnostic.js';
import { isObjectValue, isUnknown, type Value } from '../hcl/value.js';
import type { AgentDefaults, AgentSpec, CommanderSpec, DatasetSpec, InputType, Mission, MissionInput, ModelRef, TaskSpec } from '../graph.js';
import { checkMissionGraph } from '../graphRules.js';
import { lostEntries, resolveModelRef, resolveNameList, resolveToolList } from '../references.js';
import { blockHeader, checkBlockName, decodeBody, locationOf, NameRegistry, type BlockSchema } from '../schema.js';
import { loadNamedBlocks } from './namedBlocks.js';
import { LayeredMap } from '../layeredMap.js';
import { scopeFor, type LoadContext, type Scope } from '../scope.js';
import { evaluateValue, readBool, readEnum, readInteger, readText } from '../values.js';
import { toBoolValue, toNumberValue, toStringValue, typeName } from '../hcl/convert.js';
import { checkAgentName, loadAgent, LOOP_GUARD_ATTRIBUTES, readLoopGuard, readReasoning } from './agents.js';
import { BUDGET_BLOCK, checkBudgetFloor, checkBudgetPricing, loadBudget } from './budget.js';
import { loadTrigger, TRIGGER_BLOCK } from './trigger.js';
import { loadSchedules, SCHEDULE_BLOCK } from './schedule.js';
import { loadNotifications, NOTIFICATION_BLOCK } from './notification.js';
import { loadTask, type MissionContext } from './tasks.js';
import { loadDatasets } from './datasets.js';
import { warnUnfilledDatasets } from './filledDatasets.js';
import { MISSION_MEMORY_BLOCK, readMissionSlots } from './memory.js';
import { exactList } from '../exactList.js';
import { protectedInputWarning, readInputsShorthand } from './goInputs.js';
import { loadToolResponse, TOOL_RESPONSE_BLOCK } from './toolResponse.js';
import { CONTEXT_BLOCKS, loadContextSettings } from './contextBlocks.js';

export const DEFAULT_MAX_PARALLEL = 4;

const SCHEMA: BlockSchema = {
  attributes: { description: {}, agents: {}, max_parallel: {}, direct: {}, inputs: {}, directive: {}, memories: {}, scratchpad: {}, packets: {}, expose: {} },
  blocks: {
    memory: MISSION_MEMORY_BLOCK,
    budget: BUDGET_BLOCK,
    trigger: TRIGGER_BLOCK,
    schedule: SCHEDULE_BLOCK,
    notification: NOTIFICATION_BLOCK,
    commander: { labels: [], min: 1, max: 1 },
    agent_defaults: { labels: [], max: 1 },
    input: { labels: ['name'] },
    dataset: { labels: ['name'] },
    agent: { labels: ['name'] },
    task: { labels: ['name'] },
    secret: { labels: ['name'] },
  },
};
const COMMANDER_SCHEMA: BlockSchema = { attributes: { model: { required: true }, reasoning: {}, max_turns: {} }, blocks: { tool_response: TOOL_RESPONSE_BLOCK, ...CONTEXT_BLOCKS } };
const DEFAULTS_SCHEMA: BlockSchema = {
  attributes: { model: {}, reasoning: {}, tools: {}, skills: {}, discovery: {}, discovery_threshold: {}, max_turns: {}, ...LOOP_GUARD_ATTRIBUTES },
  blocks: { tool_response: TOOL_RESPONSE_BLOCK, ...CONTEXT_BLOCKS },
};
const INPUT_SCHEMA: BlockSchema = { attributes: { type: { required: true }, description: {}, default: {}, protected: {}, value: {} } };
const INPUT_TYPES: readonly InputType[] = ['string', 'number', 'integer', 'bool', 'list', 'map', 'object'];

/** The missions, in order; with `each`, each is handed to it once loaded and not kept (the result is empty). */
export function loadMissions(blocks: readonly Block[], ctx: LoadContext, each?: (mission: Mission) => void): Mission[] {
  return loadNamedBlocks(blocks, 'mission', ctx, (block, name) => loadMission(block, name, ctx), each === undefined ? {} : { each });
}

function loadMission(block: Block, name: string, ctx: LoadContext): Mission | undefined {
  const where = `mission "${name}"`;
  const header = blockHeader(block);
  const body = decodeBody(block.body, SCHEMA, { what: where, header }, ctx.diags);
  const base = scopeFor(ctx, 'mission', where);

  const declared = loadInputs(body.blocks.get('input') ?? [], base, ctx);
  // Go's `directive` is for its UI only, never the model's: read (so a mistake in it is reported), not used.
  readText(body.attrs.get('directive'), base, ctx.diags);
  for (const secret of body.blocks.get('secret') ?? []) {
    ctx.diags.push(diagnosticAt(secret.typeRange, 'warning', 'GO007', `the secret block in ${where} is ignored (Go Squadron ignores it too)`, 'declare the secret as variable "name" { secret = true } and use vars.<name>'));
  }
  // Go's shorthand `inputs = { … }` wins when both forms are written, as it does there.
  const shorthand = body.attrs.get('inputs');
  const inputs = shorthand === undefined ? declared : readInputsShorthand(shorthand, base, ctx, convertDefault);
  const localAgents = loadLocalAgents(body.blocks.get('agent') ?? [], name, base, ctx);
  const agents = new LayeredMap(new Map(localAgents.map((a) => [a.name, a])), ctx.symbols.agents);

  const taskBlocks = body.blocks.get('task') ?? [];
  const taskNames = new NameRegistry('task');
  const tasks = new Map<string, Range>();
  const uniqueTasks: Block[] = [];
  for (const t of taskBlocks) {
    checkBlockName(t, ctx.diags);
    if (!taskNames.claim(t.labels[0]!, t.labelRanges[0]!, ctx.diags)) continue;
    tasks.set(t.labels[0]!, t.labelRanges[0]!);
    uniqueTasks.push(t);
  }
  const datasetBlocks = body.blocks.get('dataset') ?? [];
  const datasetNames = new Map(datasetBlocks.map((d) => [d.labels[0]!, d.labelRanges[0]!]));
  const scope: Scope = { ...base, tasks, inputs: new Map(inputs.map((i) => [i.name, i])), agents, datasets: datasetNames };
  const datasets = loadDatasets(datasetBlocks, scope, ctx);

  const commanderBlock = body.blocks.get('commander')?.[0];
  const commander = commanderBlock === undefined ? undefined : loadCommander(commanderBlock, { ...scope, where: `${where} commander` }, ctx);
  const defaultsBlock = body.blocks.get('agent_defaults')?.[0];
  const defaults = defaultsBlock === undefined ? undefined : loadDefaults(defaultsBlock, { ...scope, where: `${where} agent_defaults` }, ctx);

  const agentsAttr = body.attrs.get('agents');
  const diagsBeforeAgents = ctx.diags.length;
  const missionAgentRefs = agentsAttr === undefined ? undefined : resolveNameList(agentsAttr, 'agents', agents, scope, ctx.diags);
  const missionAgents = missionAgentRefs?.map((a) => a.name);
  const agentsIncomplete = agentsAttr !== undefined && lostEntries(agentsAttr, missionAgentRefs, ctx.diags.length > diagsBeforeAgents);
  const maxParallel = readInteger(body.attrs.get('max_parallel'), scope, ctx.diags, 1) ?? DEFAULT_MAX_PARALLEL;
  const description = readText(body.attrs.get('description'), scope, ctx.diags);
  const expose = readBool(body.attrs.get('expose'), scope, ctx.diags);
  const budget = loadBudget(body.blocks.get('budget')?.[0], scope, ctx);
  const slots = readMissionSlots(body, scope, ctx);

  const missionCtx: MissionContext = { name, scope, inputNames: inputs.map((i) => i.name) };
  const directAttr = body.attrs.get('direct');
  if (readBool(directAttr, scope, ctx.diags) === true && directAttr !== undefined) missionCtx.direct = directAttr.nameRange;
  if (commander !== undefined) missionCtx.commander = commander;
  if (defaults !== undefined) missionCtx.defaults = defaults;
  if (missionAgents !== undefined) missionCtx.agents = missionAgents;
  if (agentsIncomplete) missionCtx.agentsIncomplete = true;
  const loaded = uniqueTasks.map((t) => loadTask(t, missionCtx, ctx));
  const edges = checkMissionGraph(name, header, loaded.map((l) => l.edges), ctx.diags);
  // An edge names its task with the task's own name string, not a copy per reference.
  const taskName = new Map(loaded.map((l) => [l.spec.name, l.spec.name]));
  const named = (n: string): string => taskName.get(n) ?? n;
  loaded.forEach((l, i) => {
    const e = edges[i];
    if (e === undefined) return;
    l.spec.dependsOn = exactList(e.dependsOn.map((d) => named(d.name)));
    l.spec.sendTo = exactList(e.sendTo.map((s) => named(s.name)));
  });

  warnUnusedDatasets(datasets, loaded.map((l) => l.spec), datasetBlocks, ctx);
  warnUnfilledDatasets(datasets, loaded.map((l) => l.spec), (n) => agents.get(n), missionAgents, datasetBlocks, ctx);
  warnUnusedLocalAgents(localAgents, missionAgents, loaded.map((l) => l.spec.agents), body.blocks.get('agent') ?? [], ctx);
  if (commander === undefined) return undefined;
  const mission: Mission = {
    name,
    commander,
    agents: missionAgents ?? exactList([]),
    localAgents,
    maxParallel,
    schedules: loadSchedules(body.blocks.get('schedule') ?? [], scope, ctx),
    notifications: loadNotifications(body.blocks.get('notification') ?? [], scope, ctx),
    inputs,
    datasets,
    tasks: loaded.map((l) => l.spec),
    location: locationOf(block),
  };
  if (description !== undefined) mission.description = description;
  if (expose === false) mission.expose = false;
  if (defaults !== undefined) mission.agentDefaults = defaults;
  if (budget !== undefined) mission.budget = budget;
  if (slots !== undefined) mission.slots = slots;
  const trigger = loadTrigger(body.blocks.get('trigger')?.[0], name, scope, ctx);
  if (trigger !== undefined) mission.trigger = trigger;
  checkBudgetPricing(budget, missionModels(mission, agents), ctx.symbols.models, where, ctx.diags);
  checkBudgetFloor(budget, missionModels(mission, agents), ctx.symbols.models, where, ctx.diags);
  for (const task of mission.tasks) {
    checkBudgetPricing(task.budget, [commander.model, ...taskModels(task, agents)], ctx.symbols.models, `${where} task "${task.name}"`, ctx.diags);
    checkBudgetFloor(task.budget, [commander.model, ...taskModels(task, agents)], ctx.symbols.models, `${where} task "${task.name}"`, ctx.diags);
  }
  return mission;
}

/** Every model a run of the mission may call: the commander's, the workers', the agents' its tasks can use. */
export function missionModels(mission: Mission, agents: { get(name: string): AgentSpec | undefined }): ModelRef[] {
  const out: ModelRef[] = [mission.commander.model];
  for (const task of mission.tasks) out.push(...taskModels(task, agents));
  return out;
}

/** The models a task's sessions call: its worker's and its agents'. */
export function taskModels(task: TaskSpec, agents: { get(name: string): AgentSpec | undefined }): ModelRef[] {
  const out: ModelRef[] = [];
  if (task.worker) out.push(task.worker.model);
  for (const name of task.agents) {
    const agent = agents.get(name);
    if (agent) out.push(agent.model);
  }
  return out;
}

function loadLocalAgents(blocks: readonly Block[], mission: string, scope: Scope, ctx: LoadContext): AgentSpec[] {
  // A mission-scoped agent may not shadow a global one: both would answer to agents.<name>.
  const names = new NameRegistry('agent', (n) => ctx.symbols.agents.get(n)?.location);
  return loadNamedBlocks(blocks, 'agent', ctx, (block, name) => loadAgent(block, 'mission', { ...scope, where: `mission "${mission}" agent "${name}"` }, ctx), {
    names,
    checkName: checkAgentName,
  });
}

function loadCommander(block: Block, scope: Scope, ctx: LoadContext): CommanderSpec | undefined {
  const body = decodeBody(block.body, COMMANDER_SCHEMA, { what: scope.where, header: block.typeRange }, ctx.diags);
  const modelAttr = body.attrs.get('model');
  const model = modelAttr === undefined ? undefined : resolveModelRef(modelAttr, scope, ctx.diags);
  const reasoning = readReasoning(body.attrs.get('reasoning'), model, scope, ctx.diags);
  const maxTurns = readInteger(body.attrs.get('max_turns'), scope, ctx.diags, 1);
  const toolResponse = loadToolResponse(body.blocks.get('tool_response')?.[0], scope, ctx);
  if (model === undefined) return undefined;
  const commander: CommanderSpec = { model };
  if (reasoning !== undefined) commander.reasoning = reasoning;
  if (maxTurns !== undefined) commander.maxTurns = maxTurns;
  if (toolResponse !== undefined) commander.toolResponse = toolResponse;
  const context = loadContextSettings(body.blocks, scope, ctx);
  if (context !== undefined) commander.context = context;
  return commander;
}

function loadDefaults(block: Block, scope: Scope, ctx: LoadContext): AgentDefaults | undefined {
  const body = decodeBody(block.body, DEFAULTS_SCHEMA, { what: scope.where, header: block.typeRange }, ctx.diags);
  const a = (n: string) => body.attrs.get(n);
  const modelAttr = a('model');
  const model = modelAttr === undefined ? undefined : resolveModelRef(modelAttr, scope, ctx.diags);
  const toolsAttr = a('tools');
  const tools = toolsAttr === undefined ? [] : (resolveToolList(toolsAttr, 'agent_defaults', scope, ctx.diags) ?? []);
  const skillsAttr = a('skills');
  const skills = skillsAttr === undefined ? [] : (resolveNameList(skillsAttr, 'skills', scope.symbols.skills, scope, ctx.diags) ?? []);
  const defaults: AgentDefaults = { tools, skills: skills.map((s) => ({ name: s.name, via: 'agent_defaults' as const })) };
  if (model !== undefined) defaults.model = model;
  const reasoning = readReasoning(a('reasoning'), model, scope, ctx.diags);
  if (reasoning !== undefined) defaults.reasoning = reasoning;
  const discovery = readBool(a('discovery'), scope, ctx.diags);
  if (discovery !== undefined) defaults.discovery = discovery;
  const threshold = readInteger(a('discovery_threshold'), scope, ctx.diags, 1);
  if (threshold !== undefined) defaults.discoveryThreshold = threshold;
  const maxTurns = readInteger(a('max_turns'), scope, ctx.diags, 1);
  if (maxTurns !== undefined) defaults.maxTurns = maxTurns;
  const toolResponse = loadToolResponse(body.blocks.get('tool_response')?.[0], scope, ctx);
  if (toolResponse !== undefined) defaults.toolResponse = toolResponse;
  const context = loadContextSettings(body.blocks, scope, ctx);
  if (context !== undefined) defaults.context = context;
  const loopGuard = readLoopGuard(a, scope, ctx.diags);
  if (loopGuard !== undefined) defaults.loopGuard = loopGuard;
  return defaults;
}

function loadInputs(blocks: readonly Block[], scope: Scope, ctx: LoadContext): MissionInput[] {
  const names = new NameRegistry('input');
  const out: MissionInput[] = [];
  for (const block of blocks) {
    const name = block.labels[0]!;
    if (!checkBlockName(block, ctx.diags)) continue;
    if (!names.claim(name, block.labelRanges[0]!, ctx.diags)) continue;
    const body = decodeBody(block.body, INPUT_SCHEMA, { what: `input "${name}"`, header: blockHeader(block) }, ctx.diags);
    const type = readEnum(body.attrs.get('type'), INPUT_TYPES, scope, ctx.diags);
    const description = readText(body.attrs.get('description'), scope, ctx.diags);
    const defaultAttr = body.attrs.get('default');
    let defaultValue: Value | undefined;
    if (defaultAttr !== undefined) {
      const v = evaluateValue(defaultAttr.expr, scope, ctx.diags);
      if (v !== undefined && v !== null && !isUnknown(v) && type !== undefined) {
        defaultValue = convertDefault(v, type);
        if (defaultValue === undefined) {
          ctx.diags.push(diagnosticAt(defaultAttr.expr.range, 'error', 'SCH007', `the default of input "${name}" must be ${describeType(type)}, got ${typeName(v)}`));
        }
      }
    }
    if (type === undefined) continue;
    const protectedAttr = body.attrs.get('protected');
    if (protectedAttr !== undefined && readBool(protectedAttr, scope, ctx.diags) === true) {
      // Go's protected input: its value is for tools, never the model's; see goInputs.ts.
      const valueAttr = body.attrs.get('value');
      if (valueAttr === undefined) ctx.diags.push(diagnosticAt(protectedAttr.nameRange, 'error', 'GO006', `protected input "${name}" must have a value`, 'add value = vars.<a secret variable>'));
      else evaluateValue(valueAttr.expr, scope, ctx.diags);
      protectedInputWarning(name, protectedAttr, ctx);
      continue;
    }
    if (body.attrs.get('value') !== undefined) ctx.diags.push(diagnosticAt(body.attrs.get('value')!.nameRange, 'error', 'GO006', `value is only for a protected input ("${name}" is not)`, 'add protected = true, or use default'));
    const input: MissionInput = { name, type, required: defaultValue === undefined };
    if (description !== undefined) input.description = description;
    if (defaultValue !== undefined) input.default = defaultValue;
    out.push(input);
  }
  return out;
}

function describeType(type: InputType): string {
  return type === 'integer' ? 'a whole number' : type === 'list' ? 'a list' : type === 'map' || type === 'object' ? 'an object' : `a ${type}`;
}

/** A default converted to the input's type (HCL's conversions), or undefined when it cannot be. */
export function convertDefault(v: Value, type: InputType): Value | undefined {
  switch (type) {
    case 'string': {
      const c = toStringValue(v);
      return c.ok ? c.value : undefined;
    }
    case 'number':
    case 'integer': {
      const c = toNumberValue(v);
      if (!c.ok || !Number.isFinite(c.value)) return undefined;
      return type === 'number' || Number.isInteger(c.value) ? c.value : undefined;
    }
    case 'bool': {
      const c = toBoolValue(v);
      return c.ok ? c.value : undefined;
    }
    case 'list':
      return Array.isArray(v) ? v : undefined;
    case 'map':
    case 'object':
      return isObjectValue(v) ? v : undefined;
  }
}

function warnUnusedLocalAgents(local: readonly AgentSpec[], missionAgents: readonly string[] | undefined, taskAgents: readonly string[][], blocks: readonly Block[], ctx: LoadContext): void {
  const used = new Set([...(missionAgents ?? []), ...taskAgents.flat()]);
  for (const agent of local) {
    if (used.has(agent.name)) continue;
    const block = blocks.find((b) => b.labels[0] === agent.name);
    if (block === undefined) continue;
    ctx.diags.push(
      diagnosticAt(block.labelRanges[0]!, 'warning', 'GRA011', `agent "${agent.name}" is declared in this mission but no task can use it`, `add agents.${agent.name} to the mission's agents or to a task's agents`),
    );
  }
}

function warnUnusedDatasets(datasets: readonly DatasetSpec[], tasks: readonly TaskSpec[], blocks: readonly Block[], ctx: LoadContext): void {
  const used = new Set(tasks.flatMap((t) => (t.iterator === undefined ? [] : [t.iterator.dataset])));
  for (const dataset of datasets) {
    if (used.has(dataset.name)) continue;
    const block = blocks.find((b) => b.labels[0] === dataset.name);
    if (block === undefined) continue;
    ctx.diags.push(
      diagnosticAt(block.labelRanges[0]!, 'warning', 'ITR007', `dataset "${dataset.name}" is declared but no task iterates over it`, `add iterator { dataset = datasets.${dataset.name} } to a task, or remove the dataset`),
    );
  }
}
