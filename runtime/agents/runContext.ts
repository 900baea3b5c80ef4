// Everything a running mission needs, passed explicitly from the entry point down to each task and
// session (no module-level state).

import type { McpPromptSkill, Skill } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import type { BudgetLedger } from '../budget/ledger.js';
import type { OperatorDesk } from '../operator/desk.js';
import type { TaskSpec } from '../../config/graph.js';
import type { ItemRow } from '../../store/index.js';
import type { UpstreamResult } from './taskResults.js';
import type { SamplingContext } from '../model/mcpSampling.js';
import type { ToolResult, ToolSpec } from '../tools/types.js';

/** The caller's flags on `squadron run`, applied on top of what the config declares. */
export interface SelectionOverrides {
  /** `--tool REF…`: restrict every worker to these of its authorized tools. */
  tools?: string[];
  noTools: boolean;
  /** `--skill NAME…`: add to every worker. */
  skills: string[];
  noSkills: boolean;
}

export interface ToolResolver {
  /** Resolves canonical refs (expanding `mcp.<s>.all`) to ToolSpecs, in order, de-duplicated. */
  resolve(refs: readonly string[]): Promise<ToolSpec[]>;
  /** The skills an `mcp.<server>.prompts[.<prompt>]` skill name stands for (contacts the server). */
  promptSkills?(name: string): Promise<{ ok: true; skills: Skill[] } | { ok: false; error: string }>;
  /**
   * Calls `listener` with a server's name whenever it changes its tools (after the new list is in
   * place and recorded); the change is complete once the returned promise settles. Returns the
   * function that stops the calls.
   */
  onToolsChanged?(listener: (server: string) => Promise<void>): () => void;
  /** Loads an MCP prompt skill: the prompt's messages with the model's arguments. */
  loadPrompt?(prompt: McpPromptSkill, args: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<ToolResult>;
}

export interface RunLimits {
  commanderMaxTurns: number;
  agentMaxTurns: number;
}

/** A run's services: what sampling needs (config, store, bus, gated model clients), then the rest. */
export interface RunContext extends SamplingContext {
  tools: ToolResolver;
  workspaceDir: string;
  /** Aborted on SIGINT or when a sibling task fails: sessions stop at the next safe point. */
  signal: AbortSignal;
  inputs: Record<string, Value>;
  overrides: SelectionOverrides;
  limits: RunLimits;
  /** The run's budgets; every model call reserves against it (see runtime/budget/). */
  budget?: BudgetLedger;
  /** Approvals and questions for the run's operator (see runtime/operator/). */
  operator?: OperatorDesk;
  /** PostgreSQL: parallel items are queued as units of work for any runner (runtime/schedule/queuedTasks.ts); undefined: they run here. */
  itemDispatch?: ItemDispatch;
}

export const DEFAULT_LIMITS: RunLimits = { commanderMaxTurns: 40, agentMaxTurns: 40 };

/** Executes one attempt of one item to its result, and says which items to start first on a re-attach. */
export interface ItemDispatch {
  run: ItemAttempt;
  /** The items to start first: those whose attempt is already queued or running (a coordinator that took over). */
  inFlight(ctx: RunContext, task: string, rows: readonly ItemRow[]): Promise<ReadonlySet<number>>;
}

export type ItemAttempt = (ctx: RunContext, task: TaskSpec, item: Value, row: ItemRow, upstream: readonly UpstreamResult[], total: number) => Promise<AttemptResult>;

/** `announced`: the item.finished event went out in the commit that completed the item. */
export type AttemptResult = { kind: 'completed'; announced?: boolean } | { kind: 'failed'; error: string } | { kind: 'interrupted' };
