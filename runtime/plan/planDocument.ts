// The plan document (`squadron plan --json`, snake_case: the documented contract) and the request
// that makes it.

import type { Mission, MissionGraph } from '../../config/graph.js';
import type { ContextPolicy, PolicyVia } from '../context/policy.js';
import type { Value } from '../../config/hcl/value.js';
import type { TaskEdge } from '../../config/taskEdges.js';
import type { ResultLimit } from '../agents/definitions.js';
import type { GivenSkill, GivenTool } from '../kernel/events.js';
import type { ToolDefinition } from '../providers/types.js';
import type { SelectionOverrides, ToolResolver } from '../agents/runContext.js';

export interface RequestBytes {
  system: number;
  tools: number;
  /** The first user message, when known before the run (the objective: a commander's, or a direct worker's). */
  messages: number;
  total: number;
  /** About 4 bytes per token; a planning figure, not a tokenizer count. */
  estimated_tokens: number;
}

export interface AgentPlan {
  name: string;
  model: string;
  api_model: string;
  reasoning?: string;
  /** How the provider receives `reasoning` (e.g. `reasoning.effort high`); only when reasoning is set. */
  reasoning_sent?: string;
  discovery: boolean;
  tools: GivenTool[];
  skills: GivenSkill[];
  /** Skills loaded up front because the objective mentions them (`$name`); their tools are in the first request. */
  preloaded_skills: string[];
  /** Names of the tools sent with the first request (all tools, or the discovery set). */
  first_request_tools: string[];
  request_bytes: RequestBytes;
  /** Above `max_tokens` a tool result is stored and previewed; `via` says where the figure comes from. */
  tool_response: ToolResponsePlan;
  context: ContextPlan;
  warnings: string[];
  /** What the tools' sources say of them, by ref (MCP annotations: read-only, destructive, idempotent, open-world); only tools with hints. */
  tool_hints: Record<string, string[]>;
  system_prompt?: string;
  /** A direct task's worker: its first user message (the objective), with --show-prompt. */
  first_message?: string;
  /** A direct task's worker: what the budget gate reserves for its first call (as a commander's). */
  first_call?: { tokens: number; dollars: number };
  tool_definitions?: ToolDefinitionJson[];
}

/** A tool definition as plan prints it: the runtime's definition with snake_case keys (the schema itself is untouched). */
export interface ToolDefinitionJson {
  name: string;
  description: string;
  input_schema: ToolDefinition['inputSchema'];
  /** Sent for strict tool calling (the provider enforces the schema); see docs/blocks/task.md. */
  strict?: true;
}

/** When the session's requests are cut down (docs/concepts/context.md), and where each figure comes from. */
export interface ContextPlan {
  window: number;
  window_via: ContextPolicy['windowVia'];
  compaction: { token_limit: number; turn_retention: number; summarize: boolean; via: PolicyVia };
  pruning?: { prune_on: number; prune_to: number; via: PolicyVia };
}

export interface ToolResponsePlan {
  max_tokens: number;
  via: ResultLimit['via'];
}

export interface CommanderPlan {
  model: string;
  api_model: string;
  reasoning?: string;
  /** How the provider receives `reasoning` (e.g. `reasoning.effort high`); only when reasoning is set. */
  reasoning_sent?: string;
  tools: string[];
  request_bytes: RequestBytes;
  /** What the budget gate reserves for the commander's first call (its upper bound). */
  first_call: { tokens: number; dollars: number };
  tool_response: ToolResponsePlan;
  context: ContextPlan;
  system_prompt?: string;
  first_message?: string;
  tool_definitions?: ToolDefinitionJson[];
}

/** An iterated task: its dataset, how it runs, and how many items a run with these inputs has. */
export interface IteratorPlan {
  dataset: string;
  mode: 'parallel' | 'sequential';
  /** Null when the items come from an input not given to plan. */
  items: number | null;
  /** Bad items (index and problems), as a run would refuse them. */
  item_problems: string[];
  concurrency_limit?: number;
  max_retries?: number;
  start_delay_ms?: number;
  smoketest?: boolean;
  on_failure?: string;
  /** Parallel: the objective, commander request and agents below are those of item 0. */
  shown_item?: 0;
}

/**
 * An iterated upstream task as the commander's prompt receives it: a digest of fixed size (counts,
 * fields, two example outputs), read further with query_task_output. `bytes` with placeholder
 * examples; `max_bytes` with examples at their full length, whatever the number of items.
 */
export interface UpstreamDigestPlan {
  task: string;
  items: number | null;
  bytes: number;
  max_bytes: number;
}

export interface TaskPlan {
  name: string;
  iterator?: IteratorPlan;
  /** Iterated upstream tasks: the digest of their items in this task's commander prompt. */
  upstream_digests?: UpstreamDigestPlan[];
  depends_on: string[];
  /** The router's routes: the task started when the commander picks it, and the condition it is told. */
  routes: { target: string; condition: string }[];
  /** Tasks started unconditionally when this one completes. */
  send_to: string[];
  work_sources: string[];
  /** A direct task (direct = true): no commander; its worker (agents[0]) runs the objective and finishes the task. */
  direct?: true;
  /** Absent for a direct task. */
  commander?: CommanderPlan;
  agents: AgentPlan[];
  /** The task's budget (covers all of its sessions and iterations). */
  budget?: BudgetPlan;
}

/** A budget's limits; `duration_ms` in milliseconds. */
export interface BudgetPlan {
  tokens?: number;
  dollars?: number;
  duration_ms?: number;
}

export interface MissionPlan {
  mission: string;
  /** The mission's budget (covers every model call of a run). */
  budget?: BudgetPlan;
  tasks: TaskPlan[];
  /** The whole mission's task graph (also with --task). */
  edges: TaskEdge[];
  /** Budgets smaller than what a task's first call reserves: such a run stops before that call. */
  budget_warnings: string[];
}

export interface PlanRequest {
  graph: MissionGraph;
  mission: Mission;
  inputs: Record<string, Value>;
  overrides: SelectionOverrides;
  tools: ToolResolver;
  task?: string;
  showPrompts: boolean;
}
