// What an expression may see: the symbol tables filled stage by stage and, for each stage, the
// namespaces it may reference. A stage sees only what earlier stages resolved, so a reference to a
// later namespace is an error that says where that namespace becomes available.

import type { HclFunction, SensitiveString } from './hcl/value.js';
import type { Diagnostic, Range } from './hcl/diagnostic.js';
import type { MemoryBlock, PacketBlock, PluginBlock, PluginToolReference } from './graph.js';
import type { AgentSpec, CustomTool, McpPromptReference, McpServer, McpToolReference, MissionInput, ModelBlock, ModelRef, Skill, ToolRefWithProvenance, Toolset, VariableValue, WorkerSpec } from './graph.js';
import type { ListInterner, SameFieldsInterner } from './exactList.js';

export const NAMESPACES = ['vars', 'models', 'builtins', 'mcp', 'plugins', 'tools', 'toolsets', 'skills', 'agents', 'tasks', 'inputs', 'datasets', 'memories', 'packets'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Stage = 'variable' | 'plugin' | 'model' | 'tool' | 'mcp' | 'toolset' | 'skill' | 'agent' | 'mission';

const TOOL_STAGE: readonly Namespace[] = ['vars', 'builtins', 'mcp', 'plugins', 'tools'];
const AGENT_STAGE: readonly Namespace[] = [...TOOL_STAGE, 'toolsets', 'models', 'skills'];

export const STAGE_NAMESPACES: Readonly<Record<Stage, readonly Namespace[]>> = {
  variable: [],
  plugin: ['vars'],
  model: ['vars'],
  tool: TOOL_STAGE,
  // `sampling_model = models.x`: models load before tools.
  mcp: [...TOOL_STAGE, 'models'],
  toolset: TOOL_STAGE,
  skill: [...TOOL_STAGE, 'toolsets'],
  agent: AGENT_STAGE,
  mission: [...AGENT_STAGE, 'agents', 'tasks', 'inputs', 'datasets', 'memories', 'packets'],
};

/** Where a namespace can be referenced, for the "not available here" message. */
export function whereVisible(ns: Namespace): string {
  const stages = (Object.keys(STAGE_NAMESPACES) as Stage[]).filter((s) => STAGE_NAMESPACES[s].includes(ns));
  if (ns === 'tasks' || ns === 'inputs' || ns === 'datasets') return 'inside mission blocks';
  if (stages.length === 0) return 'nowhere';
  return `in ${stages.join(', ').replace(/, ([^,]*)$/, ' and $1')} blocks`;
}

export interface DeclaredVariable {
  variable: VariableValue;
  range: Range;
}

/** Everything declared so far, by namespace. Filled in stage order. */
export interface Symbols {
  vars: Map<string, DeclaredVariable>;
  models: Map<string, ModelBlock>;
  mcp: Map<string, McpServer>;
  /** `plugin "name"` blocks (Go plugins, started by the runtime). */
  plugins: Map<string, PluginBlock>;
  tools: Map<string, CustomTool>;
  toolsets: Map<string, Toolset>;
  skills: Map<string, Skill>;
  /** Global agents (a mission scope adds its own). */
  agents: Map<string, AgentSpec>;
  /** Top-level `memory` blocks (shared memories). */
  memories: Map<string, MemoryBlock>;
  /** Top-level `packet` blocks. */
  packets: Map<string, PacketBlock>;
  /**
   * Declared but unusable entries (`models.x`, `tools.y`): their block had errors already reported,
   * so a reference to them is not reported again as unknown.
   */
  broken: Set<string>;
  /** Every mcp tool reference as written, collected while resolving. */
  mcpUses: McpToolReference[];
  /** Every `mcp.<server>.prompts.<prompt>` skill reference as written. */
  mcpPromptUses: McpPromptReference[];
  /** Every `plugins.<p>.<tool>` reference as written. */
  pluginUses: PluginToolReference[];
  /**
   * Each model referenced, by `<block>.<key>`: its resolved ref (one object, shared by every use),
   * where it is first written and how many times, for the model-use check.
   */
  modelUses: Map<string, ModelUse>;
  /** What a variable without a value is where it is used: an error, or unknown (see LoadOptions). */
  unsetVariables: 'error' | 'unknown';
  /** With `unsetVariables: 'unknown'`, where each variable without a value is used. */
  unsetUses: Map<string, Range[]>;
  /** Every string a value computed from a secret variable, in load order (the evaluator's marks). */
  sensitive: SensitiveString[];
}

export interface ModelUse {
  ref: ModelRef;
  /** The first reference resolved. */
  range: Range;
  count: number;
}

export function emptySymbols(unsetVariables: Symbols['unsetVariables'] = 'error'): Symbols {
  return {
    unsetVariables,
    unsetUses: new Map(),
    sensitive: [],
    vars: new Map(),
    models: new Map(),
    mcp: new Map(),
    plugins: new Map(),
    tools: new Map(),
    toolsets: new Map(),
    skills: new Map(),
    agents: new Map(),
    memories: new Map(),
    packets: new Map(),
    broken: new Set(),
    mcpUses: [],
    mcpPromptUses: [],
    pluginUses: [],
    modelUses: new Map(),
  };
}

export interface Scope {
  stage: Stage;
  /** How the current block is named in messages: `skill "x"`, `mission "m" task "t"`. */
  where: string;
  symbols: Symbols;
  /** Tasks of the current mission (with their label ranges). */
  tasks?: ReadonlyMap<string, Range>;
  /** Inputs of the current mission. */
  inputs?: ReadonlyMap<string, MissionInput>;
  /** Datasets of the current mission (with their label ranges). */
  datasets?: ReadonlyMap<string, Range>;
  /** Agents visible to the current mission: global plus its own. */
  agents?: ReadonlyMap<string, AgentSpec>;
  /** The current toolset, while resolving its own list (a toolset may not name a toolset). */
  toolset?: string;
  functions: Readonly<Record<string, HclFunction>>;
}

export function visibleIn(scope: Scope, ns: Namespace): boolean {
  if ((ns === 'tasks' && scope.tasks === undefined) || (ns === 'inputs' && scope.inputs === undefined) || (ns === 'datasets' && scope.datasets === undefined)) return false;
  return STAGE_NAMESPACES[scope.stage].includes(ns);
}

const NAMESPACE_SET: ReadonlySet<string> = new Set(NAMESPACES);

export function isNamespace(name: string): name is Namespace {
  return NAMESPACE_SET.has(name);
}

/** State shared by every stage of one load. */
export interface LoadContext {
  projectRoot: string;
  diags: Diagnostic[];
  symbols: Symbols;
  /** Functions for values evaluated now: the standard library plus load(). */
  loadFunctions: Readonly<Record<string, HclFunction>>;
  /** Functions for values evaluated at run time (objectives, tool fields): no file access. */
  runtimeFunctions: Readonly<Record<string, HclFunction>>;
  /** The text of every file read so far (config files, SKILL.md), by path: see LoadResult.sources. */
  sources: Map<string, string>;
  /** Tool lists of toolsets, agents and workers, shared where equal (see ListInterner). */
  toolLists: ListInterner<ToolRefWithProvenance>;
  /** Tasks' workers, shared where they resolve alike (see SameFieldsInterner). */
  workers: SameFieldsInterner<WorkerSpec>;
}

/** A scope for one block of a stage. */
export function scopeFor(ctx: LoadContext, stage: Stage, where: string, extra: Partial<Scope> = {}): Scope {
  return { stage, where, symbols: ctx.symbols, functions: ctx.loadFunctions, ...extra };
}
