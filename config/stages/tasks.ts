// Tasks of a mission: the objective (a template over inputs and vars, rendered at run time), the
// edges (depends_on, router, send_to), the declared agents, the output schema and — when the task
// declares `tools` — the resolved dynamic agent, the worker.

import type { Attribute, Block } from '../hcl/ast.js';
import { diagnosticAt, type Range } from '../hcl/diagnostic.js';
import type { AgentDefaults, CommanderSpec, IteratorSpec, Route, TaskSpec, ToolRefWithProvenance } from '../graph.js';
import { readFieldSchema } from '../fieldSchema.js';
import type { NamedRef, TaskEdges } from '../graphRules.js';
import { asRef, lostEntries, refItems, resolveModelRef, resolveNameList, resolveNameRef, resolveToolList, resolveToolRef } from '../references.js';
import { blockHeader, decodeBody, type BlockSchema } from '../schema.js';
import type { LoadContext, Scope } from '../scope.js';
import type { MissionContext } from './missionContext.js';

export type { MissionContext } from './missionContext.js';
import { evaluateValue, readBool, readInteger, readString, toStringValue, secretReads, warnModelReadsSecret, type ValueRules } from '../values.js';
import { loadIterator } from './iterator.js';
import { coversToolRef } from '../toolRefs.js';
import { readReasoning } from './agents.js';
import { resolveWorker, type WorkerSettings } from './worker.js';
import { exactList } from '../exactList.js';
import { BlockBackedTask } from './taskSpec.js';
import { BUDGET_BLOCK, loadBudget } from './budget.js';
import { loadApprovalList } from './approval.js';

import { readNames } from './memory.js';

const SCHEMA: BlockSchema = {
  attributes: {
    objective: { required: true },
    depends_on: {},
    agents: {},
    tools: {},
    model: {},
    reasoning: {},
    skills: {},
    send_to: {},
    output: {},
    discovery: {},
    discovery_threshold: {},
    always_load: {},
    max_turns: {},
    approval: {},
    direct: {},
    packets: {},
  },
  blocks: { router: { labels: [], max: 1 }, output: { labels: [], max: 1 }, iterator: { labels: [], max: 1 }, budget: BUDGET_BLOCK },
};
const ROUTER_SCHEMA: BlockSchema = { attributes: {}, blocks: { route: { labels: [], min: 1 } } };
const ROUTE_SCHEMA: BlockSchema = { attributes: { target: { required: true }, condition: { required: true } } };

export interface LoadedTask {
  spec: TaskSpec;
  edges: TaskEdges;
}

/** Worker-only settings: without `tools` there is no worker, so these would silently do nothing. */
const WORKER_ONLY = ['model', 'reasoning', 'skills', 'discovery', 'discovery_threshold', 'max_turns'] as const;

export function loadTask(block: Block, mission: MissionContext, ctx: LoadContext): LoadedTask {
  const name = block.labels[0]!;
  const where = `mission "${mission.name}" task "${name}"`;
  const scope: Scope = { ...mission.scope, where };
  const body = decodeBody(block.body, SCHEMA, { what: where, header: blockHeader(block) }, ctx.diags);
  const a = (n: string) => body.attrs.get(n);
  // Go reads a task's packets and does nothing more with them (the mission's decide): checked, not kept.
  readNames(a('packets'), 'packets', ctx.symbols.packets, scope, ctx);

  const iteratorBlock = body.blocks.get('iterator')?.[0];
  const iterator = iteratorBlock === undefined ? undefined : loadIterator(iteratorBlock, name, scope, ctx);
  const objectiveAttr = a('objective');
  if (objectiveAttr !== undefined) checkObjective(objectiveAttr, mission, scope, ctx, itemRule(name, iteratorBlock, iterator));

  const tasks = scope.tasks ?? new Map();
  const dependsOnAttr = a('depends_on');
  const sendToAttr = a('send_to');
  const edges: TaskEdges = {
    name,
    header: blockHeader(block),
    dependsOn: dependsOnAttr === undefined ? [] : taskRefs(dependsOnAttr, tasks, scope, ctx),
    routes: [],
    sendTo: sendToAttr === undefined ? [] : taskRefs(sendToAttr, tasks, scope, ctx),
  };
  if (dependsOnAttr !== undefined) edges.dependsOnRange = dependsOnAttr.nameRange;
  if (sendToAttr !== undefined) edges.sendToRange = sendToAttr.nameRange;
  const routes: Route[] = [];
  const routerBlock = body.blocks.get('router')?.[0];
  if (routerBlock !== undefined) {
    edges.routerRange = routerBlock.typeRange;
    if (iterator?.parallel) {
      ctx.diags.push(
        diagnosticAt(routerBlock.typeRange, 'error', 'ITR006', `task "${name}" iterates in parallel, so it cannot have a router: each item would choose its own route`, 'use send_to, or iterate sequentially (parallel = false) so one commander chooses the route after all items'),
      );
    }
    const router = decodeBody(routerBlock.body, ROUTER_SCHEMA, { what: `router of task "${name}"`, header: routerBlock.typeRange }, ctx.diags);
    for (const route of router.blocks.get('route') ?? []) {
      const r = decodeBody(route.body, ROUTE_SCHEMA, { what: `route of task "${name}"`, header: route.typeRange }, ctx.diags);
      const targetAttr = r.attrs.get('target');
      const target = targetAttr === undefined ? undefined : resolveNameRef(targetAttr.expr, 'tasks', tasks, scope, ctx.diags);
      const condition = readString(r.attrs.get('condition'), scope, ctx.diags);
      if (target !== undefined && targetAttr !== undefined) edges.routes.push({ name: target, range: targetAttr.expr.range });
      if (target !== undefined && condition !== undefined) routes.push({ target, condition });
    }
  }

  const agentsAttr = a('agents');
  const knownAgents = scope.agents ?? scope.symbols.agents;
  const diagsBeforeAgents = ctx.diags.length;
  const taskAgents = agentsAttr === undefined ? undefined : resolveNameList(agentsAttr, 'agents', knownAgents, scope, ctx.diags);
  const agentsFailed = agentsAttr !== undefined ? lostEntries(agentsAttr, taskAgents, ctx.diags.length > diagsBeforeAgents) : mission.agentsIncomplete === true;
  const output = readFieldSchema(a('output'), body.blocks.get('output'), scope, ctx.diags, `output of task "${name}"`);

  const budget = loadBudget(body.blocks.get('budget')?.[0], scope, ctx);
  const toolsAttr = a('tools');
  const modelAttr = a('model');
  const model = modelAttr === undefined ? undefined : resolveModelRef(modelAttr, scope, ctx.diags);
  const skillsAttr = a('skills');
  const settings: WorkerSettings = {
    tools: toolsAttr === undefined ? undefined : resolveToolList(toolsAttr, 'task', scope, ctx.diags),
    skills: skillsAttr === undefined ? [] : resolveNameList(skillsAttr, 'skills', scope.symbols.skills, scope, ctx.diags)?.map((s) => s.name),
    model,
    reasoning: readReasoning(a('reasoning'), model, scope, ctx.diags),
    reasoningAttr: a('reasoning'),
    discovery: readBool(a('discovery'), scope, ctx.diags),
    discoveryThreshold: readInteger(a('discovery_threshold'), scope, ctx.diags, 1),
    maxTurns: readInteger(a('max_turns'), scope, ctx.diags, 1),
  };
  if (toolsAttr === undefined) {
    for (const setting of WORKER_ONLY) {
      const attr = a(setting);
      if (attr === undefined) continue;
      ctx.diags.push(
        diagnosticAt(attr.nameRange, 'warning', 'GRA009', `${setting} has no effect: task "${name}" declares no tools, so it has no worker`, `add tools = [...] to give "${name}" a worker, or remove ${setting}`),
      );
    }
  }
  const worker = resolveWorker(settings, mission, ctx);
  if (worker !== undefined) {
    const alwaysLoadAttr = a('always_load');
    if (alwaysLoadAttr !== undefined) worker.alwaysLoad = exactList(resolveAlwaysLoad(alwaysLoadAttr, worker.tools, name, scope, ctx));
  } else if (toolsAttr === undefined && a('always_load') !== undefined) {
    const attr = a('always_load')!;
    ctx.diags.push(diagnosticAt(attr.nameRange, 'error', 'REF011', `always_load needs tools: task "${name}" declares no tools`, 'list the tools in tools = [...] first'));
  }

  // The objective and the location are read from the block's range when needed (taskSpec.ts).
  const spec: TaskSpec = new BlockBackedTask(block.range, {
    name,
    mission: mission.name,
    dependsOn: exactList([]),
    agents: taskAgents?.map((t) => t.name) ?? mission.agents ?? exactList([]),
    agentsVia: taskAgents !== undefined ? 'task' : (mission.agents?.length ?? 0) > 0 ? 'mission' : 'none',
    router: exactList(routes),
    sendTo: exactList([]),
    ...(worker !== undefined ? { worker: ctx.workers.intern(worker) } : {}),
    ...(output !== undefined ? { output: exactList(output) } : {}),
    ...(iterator !== undefined ? { iterator } : {}),
    ...(budget !== undefined ? { budget } : {}),
  });
  const approvalAttr = a('approval');
  if (approvalAttr !== undefined) {
    // The task's list covers its worker and the declared agents its commander may call.
    const held = [...(worker?.tools ?? []), ...spec.agents.flatMap((n) => knownAgents.get(n)?.tools ?? [])];
    spec.approval = loadApprovalList(approvalAttr, 'task', held, `task "${name}" (its worker and agents)`, scope, ctx);
  }
  if (isDirect(a('direct'), mission, scope, ctx)) {
    spec.direct = true;
    checkDirect(spec, { task: a('direct'), agents: agentsAttr, tools: toolsAttr, header: blockHeader(block), mission }, ctx);
  }
  if (toolsAttr === undefined && spec.agents.length === 0 && !agentsFailed && !spec.direct) {
    const hint =
      agentsAttr !== undefined
        ? 'its agents list is empty: add tools = [...] or agents'
        : 'add tools = [...] (a worker holds them), agents = [agents.<name>], or agents on the mission';
    ctx.diags.push(diagnosticAt(blockHeader(block), 'error', 'GRA002', `task "${name}" has no work source: no tools, no task agents and no mission agents`, hint));
  }
  return { spec, edges };
}

/** The task's own `direct`, else the mission's default. */
function isDirect(attr: Attribute | undefined, mission: MissionContext, scope: Scope, ctx: LoadContext): boolean {
  const own = readBool(attr, scope, ctx.diags);
  return own ?? mission.direct !== undefined;
}

/**
 * What a direct task cannot have: it has no commander, so no agents to call (nor ask_agent follow-ups),
 * and no walk over a dataset with dataset_next (a sequential iterator is a commander's loop); its
 * worker, which the task's tools make, does the work.
 */
function checkDirect(spec: TaskSpec, at: { task: Attribute | undefined; agents: Attribute | undefined; tools: Attribute | undefined; header: Range; mission: MissionContext }, ctx: LoadContext): void {
  const name = spec.name;
  // Where direct comes from: the task's attribute, or the mission's (pointed at from the task's header).
  const where = at.task?.nameRange ?? at.header;
  const why = at.task === undefined ? ` (the mission's direct = true)` : '';
  const keep = at.task === undefined ? `set direct = false on task "${name}" to keep its commander` : 'remove direct = true to keep the commander';
  if (spec.agents.length > 0) {
    const fromMission = spec.agentsVia === 'mission';
    ctx.diags.push(
      diagnosticAt(
        fromMission ? where : (at.agents?.nameRange ?? where),
        'error',
        'GRA013',
        `task "${name}" is direct${why}, so it has no commander to call ${fromMission ? "the mission's agents" : 'its agents'} (${spec.agents.join(', ')}) with call_agent or ask_agent`,
        fromMission ? `${keep}, or set agents = [] on the task to run it with its worker alone` : `${keep}, or remove agents and let the task's worker do the work with its tools`,
      ),
    );
  }
  if (at.tools === undefined && spec.agents.length === 0) {
    ctx.diags.push(diagnosticAt(where, 'error', 'GRA014', `task "${name}" is direct${why}, but declares no tools, so it has no worker to run it`, `add tools = [...] to task "${name}", or ${keep}`));
  }
  if (spec.iterator !== undefined && !spec.iterator.parallel) {
    ctx.diags.push(
      diagnosticAt(
        where,
        'error',
        'ITR009',
        `task "${name}" is direct${why}, but iterates sequentially: walking a dataset with dataset_next is a commander's work`,
        `set parallel = true in the iterator (with concurrency_limit = 1 for one item at a time), each item then runs its own worker; or ${keep}`,
      ),
    );
  }
}

/** `depends_on` / `send_to`: every entry kept (repeats included) for the graph rules. */
function taskRefs(attr: Attribute, tasks: ReadonlyMap<string, unknown>, scope: Scope, ctx: LoadContext): NamedRef[] {
  const items = refItems(attr, 'tasks.<name>', ctx.diags) ?? [];
  const out: NamedRef[] = [];
  for (const item of items) {
    const name = resolveNameRef(item, 'tasks', tasks, scope, ctx.diags);
    if (name !== undefined) out.push({ name, range: item.range });
  }
  return out;
}

/**
 * How an objective may read `item` / `item_index`: in a parallel iterator's objective (one rendering
 * per item), and nowhere else — a sequential iterator's commander gets the items through dataset_next.
 */
function itemRule(task: string, block: Block | undefined, iterator: IteratorSpec | undefined): ValueRules['item'] {
  // An iterator that failed to load was reported already: let the objective read the item quietly.
  if (iterator?.parallel || (block !== undefined && iterator === undefined)) return 'readable';
  if (block !== undefined) {
    return {
      code: 'ITR005',
      message: (n) => `task "${task}" iterates sequentially, so its objective cannot use ${n}: the commander receives each item through the dataset_next tool`,
      hint: 'set parallel = true in the iterator to render one objective per item, or leave the item out of the objective',
    };
  }
  return {
    code: 'ITR005',
    message: (n) => `${n} can only be used in the objective of a task that iterates over a dataset in parallel; task "${task}" has no iterator`,
    hint: 'add iterator { dataset = datasets.<name>, parallel = true } to the task',
  };
}

/** Objectives are rendered at run time with only inputs, vars (and a parallel item): check that now, all unknown. */
function checkObjective(attr: Attribute, mission: MissionContext, scope: Scope, ctx: LoadContext, item: ValueRules['item']): void {
  const since = secretReads(scope);
  const v = evaluateValue(attr.expr, { ...scope, functions: ctx.runtimeFunctions }, ctx.diags, {
    roots: ['vars', 'inputs'],
    inputs: mission.inputNames,
    item,
    otherRef: {
      code: 'REF012',
      message: (ref) => `an objective can only use inputs.<name> and vars.<name>; it references ${ref}`,
      hint: 'objectives are rendered when the task starts, with only the mission inputs and variables in scope',
    },
  });
  warnModelReadsSecret(attr, scope, since, ctx.diags, 'the objective');
  if (v !== undefined) toStringValue(v, attr.expr.range, ctx.diags);
}

/** Each always_load entry must be one of the worker's tools (mcp.<s>.all covers mcp.<s>.<tool>). */
function resolveAlwaysLoad(attr: Attribute, tools: readonly ToolRefWithProvenance[], task: string, scope: Scope, ctx: LoadContext): string[] {
  const items = refItems(attr, 'builtins.http.get', ctx.diags) ?? [];
  const have = tools.map((t) => t.ref);
  const out: string[] = [];
  for (const item of items) {
    const p = asRef(item, 'builtins.http.get', ctx.diags);
    const refs = p === undefined ? undefined : resolveToolRef(p, 'task', scope, ctx.diags);
    if (refs === undefined || p === undefined) continue;
    for (const { ref } of refs) {
      if (!coversToolRef(have, ref)) {
        ctx.diags.push(diagnosticAt(item.range, 'error', 'REF011', `always_load: ${ref} is not among the tools of task "${task}"`, 'always_load can only pin tools the task already has'));
        continue;
      }
      if (!out.includes(ref)) out.push(ref);
    }
  }
  return out;
}

