// A compact description of a loaded graph — what `squadron validate` prints on success and puts
// under "summary" in its JSON output (a documented, stable shape).

import type { Mission, MissionGraph, ModelRef, Route, ToolRefWithProvenance } from './graph.js';
import { taskEdges, type TaskEdge } from './taskEdges.js';

export interface TaskSummary {
  name: string;
  /** The dynamic agent, when the task declares tools. */
  worker: ({ tools: number; model: string; modelVia: string } & WholeServers) | null;
  /** Declared agents the task's commander may call. */
  agents: string[];
  agentsVia: 'task' | 'mission' | 'none';
  dependsOn: string[];
  /** The router's routes (target and condition), in declared order. */
  routes: Route[];
  sendTo: string[];
  /** Present when the task runs once per item of a dataset. */
  iterator?: { dataset: string; parallel: boolean };
  /** A direct task: its worker runs it alone, without a commander. */
  direct?: true;
}

/** A dataset: its item count when written in the config, or the list input it is bound to. */
export interface DatasetSummary {
  name: string;
  items?: number;
  boundTo?: string;
  /** Filled while the run goes (builtins.dataset.set). */
  filled?: true;
}

/**
 * `tools` counts tool refs; an `mcp.<server>.all` ref counts as one, since the loader never contacts a
 * server. Such servers are also listed in `mcpAll` (present only when there is one).
 */
export interface WholeServers {
  mcpAll?: string[];
}

export interface ConfigSummary {
  files: number;
  variables: { name: string; secret: boolean; source: string }[];
  /** `api`: the wire API of an openai or ollama block. */
  models: { name: string; provider: string; apiKey: boolean; api?: string }[];
  customTools: { name: string; implements: string }[];
  mcpServers: { name: string; transport: 'stdio' | 'http'; needsVariables?: string[] }[];
  toolsets: ({ name: string; tools: number } & WholeServers)[];
  skills: { name: string; origin: 'hcl' | 'folder' | 'mcp' }[];
  agents: ({ name: string; model: string; tools: number; skills: number } & WholeServers)[];
  missions: { name: string; commander: string; maxParallel: number; inputs: string[]; datasets: DatasetSummary[]; tasks: TaskSummary[]; edges: TaskEdge[] }[];
}

/** `block.key`, the way a model reference is shown. */
export function modelLabel(m: ModelRef): string {
  return `${m.block}.${m.key}`;
}

export type MissionSummary = ConfigSummary['missions'][number];

export function summarize(graph: MissionGraph): ConfigSummary {
  return { ...summarizeAllButMissions(graph), missions: graph.missions.map(summarizeMission) };
}

type Item<K extends keyof MissionGraph> = MissionGraph[K] extends readonly (infer T)[] ? T : never;

/**
 * The summary of one item of each kind, for a caller that goes through a large config's tools,
 * toolsets and agents one at a time instead of holding all their summaries at once.
 */
export const summarizeItem = {
  variable: (v: Item<'variables'>): ConfigSummary['variables'][number] => ({ name: v.name, secret: v.secret, source: v.source }),
  model: (m: Item<'models'>): ConfigSummary['models'][number] => ({ name: m.name, provider: m.provider, apiKey: m.apiKey !== undefined, ...(m.api ? { api: m.api } : {}) }),
  customTool: (t: Item<'customTools'>): ConfigSummary['customTools'][number] => ({ name: t.name, implements: t.implements }),
  mcpServer: (s: Item<'mcpServers'>): ConfigSummary['mcpServers'][number] => ({ name: s.name, transport: s.transport.kind, ...(s.needsVariables ? { needsVariables: [...s.needsVariables] } : {}) }),
  toolset: (t: Item<'toolsets'>): ConfigSummary['toolsets'][number] => ({ name: t.name, tools: t.tools.length, ...wholeServers(t.tools) }),
  skill: (s: Item<'skills'>): ConfigSummary['skills'][number] => ({ name: s.name, origin: s.origin.kind }),
  agent: (a: Item<'agents'>): ConfigSummary['agents'][number] => ({ name: a.name, model: modelLabel(a.model), tools: a.tools.length, skills: a.skills.length, ...wholeServers(a.tools) }),
};

/** Everything but the missions, which a large config is mostly made of: see summarizeMission. */
export function summarizeAllButMissions(graph: MissionGraph): Omit<ConfigSummary, 'missions'> {
  return {
    files: graph.files.length,
    variables: graph.variables.map(summarizeItem.variable),
    models: graph.models.map(summarizeItem.model),
    customTools: graph.customTools.map(summarizeItem.customTool),
    mcpServers: graph.mcpServers.map(summarizeItem.mcpServer),
    toolsets: graph.toolsets.map(summarizeItem.toolset),
    skills: graph.skills.map(summarizeItem.skill),
    agents: graph.agents.map(summarizeItem.agent),
  };
}

export function summarizeMission(m: Mission): MissionSummary {
  return {
    name: m.name,
    commander: modelLabel(m.commander.model),
    maxParallel: m.maxParallel,
    inputs: m.inputs.map((i) => i.name),
    datasets: m.datasets.map((d) =>
      d.source.kind === 'items' ? { name: d.name, items: d.source.items.length } : d.source.kind === 'input' ? { name: d.name, boundTo: d.source.input } : { name: d.name, filled: true },
    ),
    tasks: m.tasks.map((t) => ({
      name: t.name,
      worker:
        t.worker === undefined
          ? null
          : { tools: t.worker.tools.length, model: modelLabel(t.worker.model), modelVia: t.worker.modelVia, ...wholeServers(t.worker.tools) },
      agents: [...t.agents],
      agentsVia: t.agentsVia,
      dependsOn: [...t.dependsOn],
      routes: t.router.map((r) => ({ target: r.target, condition: r.condition })),
      sendTo: [...t.sendTo],
      ...(t.iterator !== undefined ? { iterator: { dataset: t.iterator.dataset, parallel: t.iterator.parallel } } : {}),
      ...(t.direct ? { direct: true as const } : {}),
    })),
    edges: taskEdges(m),
  };
}

function wholeServers(refs: readonly ToolRefWithProvenance[]): WholeServers {
  const servers = refs.flatMap((r) => /^mcp\.(.+)\.all$/.exec(r.ref)?.[1] ?? []);
  return servers.length > 0 ? { mcpAll: servers } : {};
}
