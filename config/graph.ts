// The MissionGraph: the loader's output and the runtime's only input. Immutable (deep-frozen by the
// loader), fully resolved: every reference is checked, toolsets are expanded, every tool and skill
// carries the declaration that brought it in (its provenance). Nothing here is a raw HCL string
// that still needs interpreting, except expressions deliberately evaluated later (task objectives
// with mission inputs, custom tool fields with the tool's inputs and the variables).

import type { Expression } from './hcl/ast.js';
import type { Range } from './hcl/diagnostic.js';
import type { Value } from './hcl/value.js';

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export type ProviderName = 'anthropic' | 'openai' | 'gemini' | 'ollama' | 'replay';
/** The wire API of an `openai` or `ollama` block (`api`; see docs/blocks/model.md for the default). */
export type ModelApi = 'responses' | 'chat_completions';
export type Reasoning = 'low' | 'medium' | 'high';

/**
 * Why a tool or skill is in an agent's hands. `task`: the task's own list; `toolset:<n>`: expanded
 * from that toolset; `agent:<n>`: the declared agent's own list; `agent_defaults`: the mission's
 * defaults for workers; `skill:<n>`: unlocked by loading that skill; `cli`: the caller's flags.
 */
export type Provenance = 'task' | 'agent_defaults' | 'cli' | `toolset:${string}` | `agent:${string}` | `skill:${string}`;

/** `models.<block>.<key>`, resolved: the block name is kept so two blocks of one provider differ. */
export interface ModelRef {
  block: string;
  key: string;
  provider: ProviderName;
  /** The id sent on the wire, from the provider's catalog or the block's `aliases`. */
  apiModel: string;
  /** Whether the model accepts a reasoning effort; undefined for an alias to an id the catalog does not know. */
  supportsReasoning?: boolean;
}

export interface Pricing {
  /** USD per million tokens. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** `budget { tokens, dollars, duration }` of a mission or a task: at least one limit is set. */
/** A mission's `trigger` block: `squadron serve` starts a run on a signed POST to /webhooks/<path>. */
export interface Trigger {
  /** Without a leading slash. */
  path: string;
  /** Absent in a Go config that sets none: serve then refuses the trigger's deliveries. */
  secret?: string;
  signature: 'hmac' | 'shared_secret';
  location: SourceLocation;
  range: Range;
}

export const NOTIFICATION_EVENTS = ['run.completed', 'run.failed', 'run.stopped', 'approval.requested', 'question.asked'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** A mission's `notification` block: signed outgoing webhooks of its runs' events under `squadron serve`. */
export interface Notification {
  index: number;
  url: string;
  secret: string;
  events: NotificationEvent[];
  location: SourceLocation;
  range: Range;
}

/** A mission's `schedule` block: when `squadron serve` starts a run, and its policies. */
export interface Schedule {
  /** Position among the mission's schedule blocks (its id is `<mission>.<index>`). */
  index: number;
  /** 5-field cron, compiled from `at` or `every` when those are used (several `at` minutes: expressions joined by "; "). */
  cron: string;
  /** What the block says, for display: `at 07:00`, `every 15m`, `cron "0 7 * * 1-5"`. */
  spec: string;
  /** IANA time zone (default UTC). */
  timezone: string;
  inputs: Record<string, string>;
  overlap: 'skip' | 'buffer_one' | 'allow';
  /** A fire missed while no server ran is made up once at start if it is this recent (0: never). */
  catchupWindowMs: number;
  pauseOnFailure: boolean;
  location: SourceLocation;
  range: Range;
}

export interface Budget {
  tokens?: number;
  /** USD. */
  dollars?: number;
  durationMs?: number;
  location: SourceLocation;
  /** The block's header, for diagnostics about it. */
  range: Range;
}

/** The runaway guards of an agent (`agent_defaults` or the agent's own attributes win). */
export interface LoopGuard {
  /** `max_repeated_calls`: identical calls in a row before the corrective result. */
  maxRepeatedCalls?: number;
  /** `max_turns_without_progress`: turns whose tool results bring nothing new before the session is stopped. */
  maxTurnsWithoutProgress?: number;
}

export interface ModelBlock {
  name: string;
  provider: ProviderName;
  /** Resolved value (usually from a secret variable). Never persisted or logged. */
  apiKey?: string;
  baseUrl?: string;
  /** `openai` and `ollama` blocks: the wire API, resolved (the block's `api` or its default). */
  api?: ModelApi;
  aliases: Readonly<Record<string, string>>;
  maxOutputTokens?: number;
  /** `context_window`: overrides the catalog's window for every model of the block. */
  contextWindow?: number;
  /** Keyed by model key (catalog key or alias). */
  pricing: Readonly<Record<string, Pricing>>;
  /** `provider = "replay"`: absolute path of the JSONL cassette. */
  cassette?: string;
  timeoutSeconds?: number;
  maxRetries?: number;
  /** Gemini only: `stream = false` asks for one `generateContent` answer instead of an SSE stream. */
  stream?: boolean;
  location: SourceLocation;
}

export interface VariableValue {
  name: string;
  description?: string;
  /** undefined when declared with neither a default nor a supplied value. */
  value?: string;
  secret: boolean;
  /** `vault`: from the project's vault (`squadron vars set`); such a value is always a secret. */
  source: 'cli' | 'env' | 'vault' | 'default' | 'unset';
}

/**
 * Why a tool's calls wait for the operator's approval: its own `tool` block (`approval = true`), a
 * toolset with `approval = true` that brought it, or the `approval` list of a task or an agent.
 */
export type ApprovalVia = 'tool' | 'task' | `toolset:${string}` | `agent:${string}`;

/** One entry of an `approval = [...]` list: `ref` may be `mcp.<server>.all` (every tool of the server). */
export interface ApprovalRule {
  ref: string;
  via: ApprovalVia;
}

/** A tool reference after expansion: `builtins.http.get`, `tools.weather`, `mcp.fs.read_file`, `mcp.fs.all`. */
export interface ToolRefWithProvenance {
  /** Canonical dotted ref. `mcp.<server>.all` stays unexpanded until the server is connected. */
  ref: string;
  via: Provenance;
  /** Set when a route that brought the tool requires approval (any one wins over the others). */
  approval?: ApprovalVia;
}

export interface SkillRefWithProvenance {
  name: string;
  via: Provenance;
}

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'map';

/** One field of a custom tool's inputs or a task's output schema. */
export interface FieldSchema {
  name: string;
  type: FieldType;
  description: string;
  required: boolean;
  /** Element schema for arrays (name is ""), properties for objects. */
  items?: FieldSchema;
  properties?: FieldSchema[];
}

export interface CustomTool {
  name: string;
  /** `tools.<name>` */
  ref: string;
  /** The builtin it wraps, e.g. `builtins.http.get`. */
  implements: string;
  description: string;
  inputs: FieldSchema[];
  /**
   * Fields of the implemented tool's input, evaluated at call time with only `inputs` (the model's
   * input) and `vars` (the variables' values) in scope. Parsed again from the source on each read.
   */
  fields: Readonly<Record<string, Expression>>;
  idempotent: boolean;
  /** `approval = true`: every call waits for the operator's approval. */
  approval?: true;
  location: SourceLocation;
}

export type McpTransport =
  | { kind: 'stdio'; command: string; args: string[]; env: Readonly<Record<string, string>> }
  | { kind: 'http'; url: string; headers: Readonly<Record<string, string>> };

export interface McpServer {
  name: string;
  /** What the server is for, in the config's words: its group's line in a worker's discovery contract. */
  description?: string;
  transport: McpTransport;
  /**
   * `roots`: absolute paths of the folders the server may work in (answered to its `roots/list`).
   * Absent: the run's workspace.
   */
  roots?: string[];
  /** `timeout`: a call without progress fails after this long (default 60 s). */
  timeoutMs?: number;
  /** `max_timeout`: a call kept alive by progress fails after this long in total (default 10 min). */
  maxTimeoutMs?: number;
  /** `sampling = true`: the server may ask for model completions (`sampling/createMessage`). */
  sampling?: true;
  /** `sampling_model`: answers the server's sampling requests instead of the calling agent's model. */
  samplingModel?: ModelRef;
  location: SourceLocation;
  /**
   * Only from `validate`, which loads without the values of unset variables: the variables this
   * server's config needs (`vars.<name>`). Its transport is then incomplete and it is never contacted.
   */
  needsVariables?: string[];
}

/** Where an `mcp.<server>.<tool>` (or `.all`) reference is written, so a later check that lists the
 * server's tools can report an unknown tool at the exact characters. */
/** `mcp.<server>.prompts.<prompt>` as written in `skills` (one per occurrence). */
export interface McpPromptReference {
  server: string;
  prompt: string;
  range: Range;
}

/** A `plugin "name"` block of a Go config: a program speaking go-plugin's protocol, started by the runtime. */
export interface PluginBlock {
  name: string;
  /** `source`: a local path (absolute here) or `github.com/owner/repo`; absent with version = "local". */
  source?: string;
  /** `local` or a semantic version (`v1.2.0`). */
  version: string;
  /** `settings { k = v }`, every value a string (as Go passes them to Configure). */
  settings: Readonly<Record<string, string>>;
  location: SourceLocation;
}

/** Where a `plugins.<p>.<tool>` (or `.all`) reference is written, so validate can check the tool exists. */
export interface PluginToolReference {
  plugin: string;
  /** The tool name, or `all`. */
  tool: string;
  range: Range;
}

export interface McpToolReference {
  server: string;
  /** The tool name, or `all`. */
  tool: string;
  range: Range;
}

export interface Toolset {
  name: string;
  description?: string;
  /** The toolset's own refs (builtins `.all` expanded), each with via `toolset:<name>`. */
  tools: ToolRefWithProvenance[];
  /** `approval = true`: every tool it brings needs approval (its entries carry `approval`). */
  approval?: true;
  location: SourceLocation;
}

export interface Skill {
  name: string;
  description: string;
  instructions: string;
  /** Tools the skill unlocks when loaded (via `skill:<name>`). */
  tools: ToolRefWithProvenance[];
  /** `mcp`: a server's prompt (file and line of its `mcp` block), built by the runtime from `mcp.<server>.prompts`. */
  origin: { kind: 'hcl' | 'folder' | 'mcp'; file: string; line: number };
  /** Set for an MCP prompt: loading it gets the prompt from the server with the model's arguments. */
  prompt?: McpPromptSkill;
  license?: string;
  compatibility?: string;
  metadata?: Readonly<Record<string, string>>;
  allowedTools?: string[];
}

/** `tool_response { max_tokens }`: above this many tokens a tool result is stored and previewed. */
export interface ToolResponse {
  maxTokens: number;
}

/** `compaction { token_limit, turn_retention, summarize }`; unset figures take the runtime's defaults. */
export interface Compaction {
  tokenLimit?: number;
  turnRetention?: number;
  summarize?: boolean;
}

/** `pruning { prune_on, prune_to }`, in model turns. */
export interface Pruning {
  pruneOn: number;
  pruneTo: number;
}

/** The context management a block sets (docs/concepts/context.md). */
export interface ContextSettings {
  compaction?: Compaction;
  pruning?: Pruning;
}

export interface McpPromptSkill {
  server: string;
  /** The prompt's name on the server. */
  name: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

export interface AgentSpec {
  name: string;
  scope: 'global' | 'mission';
  model: ModelRef;
  personality: string;
  tools: ToolRefWithProvenance[];
  skills: SkillRefWithProvenance[];
  /** Its own `skill "n" { … }` blocks (listed in `skills` too): loadable by this agent only. */
  ownSkills?: Skill[];
  reasoning?: Reasoning;
  maxTurns?: number;
  toolResponse?: ToolResponse;
  context?: ContextSettings;
  loopGuard?: LoopGuard;
  /** The agent's `approval = [...]`: its tools whose calls need approval, in every task. */
  approval?: ApprovalRule[];
  location: SourceLocation;
}

/** The dynamic agent of a task, fully resolved at load time (caller flags apply on top at run time). */
export interface WorkerSpec {
  name: 'worker';
  model: ModelRef;
  modelVia: 'task' | 'agent_defaults' | 'commander';
  reasoning?: Reasoning;
  /** Task tools (direct and toolset-expanded) then `agent_defaults.tools`, de-duplicated, order kept. */
  tools: ToolRefWithProvenance[];
  skills: SkillRefWithProvenance[];
  /** Resolved discovery decision inputs. */
  discovery: 'auto' | 'on' | 'off';
  discoveryThreshold: number;
  /** Refs always sent with full schema even under discovery. */
  alwaysLoad: string[];
  maxTurns?: number;
  /** From agent_defaults (a task has no tool_response of its own). */
  toolResponse?: ToolResponse;
  /** From agent_defaults, as toolResponse. */
  context?: ContextSettings;
}

export interface Route {
  target: string;
  condition: string;
}

export type InputType = 'string' | 'number' | 'integer' | 'bool' | 'list' | 'map' | 'object';

export interface MissionInput {
  name: string;
  type: InputType;
  description?: string;
  default?: Value;
  required: boolean;
}

export interface TaskSpec {
  name: string;
  mission: string;
  /** The objective template (parsed again from the source on each read); evaluate with `renderObjective` once inputs are known. */
  objective: Expression;
  /** Source text of the objective, for display. */
  objectiveSource: string;
  dependsOn: string[];
  /** Declared agents available to this task's commander (the task's list, else the mission's). */
  agents: string[];
  agentsVia: 'task' | 'mission' | 'none';
  /** Present exactly when the task declares `tools`. */
  worker?: WorkerSpec;
  router: Route[];
  sendTo: string[];
  /** Task output schema; undefined when the task declares none. */
  output?: FieldSchema[];
  /** Present when the task runs once per item of a dataset. */
  iterator?: IteratorSpec;
  /** Covers every session and iteration of the task. */
  budget?: Budget;
  /** The task's `approval = [...]`: tools whose calls need approval, for every agent working on the task. */
  approval?: ApprovalRule[];
  /**
   * `direct = true` (the task's own, or the mission's default): no commander; the worker runs the
   * objective itself, holding the task's finishing tools (submit_output, task_complete with its route).
   */
  direct?: true;
  location: SourceLocation;
}

/**
 * Where a dataset's items come from: written in the config, a list input given at run time, or
 * filled while the run goes by its tasks with builtins.dataset.set (the Go original's datasets).
 */
export type DatasetSource = { kind: 'items'; items: Value[] } | { kind: 'input'; input: string } | { kind: 'filled' };

export interface DatasetSpec {
  name: string;
  description?: string;
  source: DatasetSource;
  /** Each item must be an object matching these fields; undefined: any items. */
  schema?: FieldSchema[];
  location: SourceLocation;
}

export type IteratorFailurePolicy = 'stop' | 'continue';

/** A task's `iterator` block, defaults applied. */
export interface IteratorSpec {
  dataset: string;
  /** One commander per item (true), or one commander walking the items with dataset_next (false). */
  parallel: boolean;
  /** Parallel: items of this task running at once (within the mission's max_parallel). */
  concurrencyLimit: number;
  /** Parallel: how often a failed item is re-run, each time from a fresh session. */
  maxRetries: number;
  /** Parallel: milliseconds between the first launches. */
  startDelayMs: number;
  /** Parallel: run item 0 first and stop the task if it fails. */
  smoketest: boolean;
  /** Parallel: after a failed item, start no more items ('stop') or go on ('continue'). */
  onFailure: IteratorFailurePolicy;
}

export interface CommanderSpec {
  model: ModelRef;
  reasoning?: Reasoning;
  maxTurns?: number;
  toolResponse?: ToolResponse;
  context?: ContextSettings;
}

export interface AgentDefaults {
  model?: ModelRef;
  reasoning?: Reasoning;
  tools: ToolRefWithProvenance[];
  skills: SkillRefWithProvenance[];
  discovery?: boolean;
  discoveryThreshold?: number;
  maxTurns?: number;
  toolResponse?: ToolResponse;
  context?: ContextSettings;
  loopGuard?: LoopGuard;
}

export interface Mission {
  name: string;
  description?: string;
  commander: CommanderSpec;
  agentDefaults?: AgentDefaults;
  /** Mission-level agent list (names of global or mission-scoped agents). */
  agents: string[];
  /** Agents declared inside this mission block. */
  localAgents: AgentSpec[];
  maxParallel: number;
  /** Covers every model call of a run of the mission. */
  budget?: Budget;
  /** Starts runs from a signed webhook under `squadron serve`. */
  trigger?: Trigger;
  /** When `squadron serve` starts runs (in declaration order). */
  schedules: Schedule[];
  /** Where `squadron serve` posts the events of the mission's runs. */
  notifications: Notification[];
  inputs: MissionInput[];
  /** `expose = false`: not offered to other agents (the MCP server's tools, A2A agent cards). */
  expose?: false;
  /** In declaration order. */
  datasets: DatasetSpec[];
  /** In declaration order. */
  tasks: TaskSpec[];
  /** Folders its agents read and write with the memory tools (the Go original's memories, scratchpad, packets). */
  slots?: MissionSlots;
  location: SourceLocation;
}

/** A mission's memory slots: what `memories`, `memory {}`, `scratchpad` and `packets` declare. */
export interface MissionSlots {
  /** Names of top-level `memory` blocks (shared by every mission that lists them), in declared order. */
  shared: string[];
  /** `memory { description }`: the mission's own memory, kept across runs. */
  memory?: { description: string };
  /** `scratchpad = true`: a folder of the run's own. */
  scratchpad: boolean;
  /** Names of `packet` blocks: read-only folders of the project. */
  packets: string[];
}

/** A top-level `memory "name" { description }`: a folder shared by the missions that list it. */
export interface MemoryBlock {
  name: string;
  description: string;
  location: SourceLocation;
}

/** A top-level `packet "name" { path, description }`: a folder of the project the agents may read. */
export interface PacketBlock {
  name: string;
  /** Absolute, inside the project. */
  path: string;
  description?: string;
  location: SourceLocation;
}

export interface MissionGraph {
  /** Directory that relative paths (load(), skills_dir, cassettes, the default database) resolve against. */
  projectRoot: string;
  /** Every loaded .hcl file, in load order. */
  files: string[];
  variables: VariableValue[];
  models: ModelBlock[];
  customTools: CustomTool[];
  mcpServers: McpServer[];
  /** `plugin` blocks (absent: none). */
  plugins?: PluginBlock[];
  /** Every `plugins.<p>.<tool>` reference as written; set by the loader when plugins are declared. */
  pluginToolRefs?: PluginToolReference[];
  toolsets: Toolset[];
  skills: Skill[];
  agents: AgentSpec[];
  missions: Mission[];
  /** Every `mcp.<server>.<tool>` reference as written (one per occurrence); always set by the loader. */
  mcpToolRefs?: McpToolReference[];
  /** Every `mcp.<server>.prompts.<prompt>` skill reference as written; always set by the loader. */
  mcpPromptRefs?: McpPromptReference[];
  /** The project's `storage` block (the Go original's), if it has one: where `run` stores runs by default. */
  storage?: StorageBlock;
  /** Top-level `memory` blocks (absent: none). */
  memories?: MemoryBlock[];
  /** Top-level `packet` blocks (absent: none). */
  packets?: PacketBlock[];
  /** The project's `telemetry` block, if it has one (telemetry/settings.ts adds the OTEL_* variables). */
  telemetry?: TelemetryBlock;
  /**
   * The top-level `allowed_hosts`: loopback, private and link-local hosts the HTTP tools may reach
   * (refused by default; see core/hostPolicy.ts). Always set by the loader.
   */
  allowedHosts?: string[];
  /**
   * Values the config computes from a secret (`upper(vars.s)`, `base64encode("u:${vars.p}")`), each
   * named after its secret with its number (`vars.s#1`): redacted wherever the secret is (absent: none).
   */
  derivedSecrets?: DerivedSecret[];
}

/** A value computed from a secret at load time; `name` is its placeholder's (`vars.token#1`). */
export interface DerivedSecret {
  name: string;
  value: string;
}

/** `storage { backend, path, conn_string }`: a SQLite file (absolute) or a PostgreSQL connection string. */
export interface StorageBlock {
  location: SourceLocation;
  backend: 'sqlite' | 'postgres';
  path?: string;
  connString?: string;
}

/** The `telemetry { … }` block as written (docs/concepts/telemetry.md); unset attributes absent. */
export interface TelemetryBlock {
  enabled?: boolean;
  /** The OTLP/HTTP base URL (`/v1/traces`, `/v1/metrics` are appended). */
  endpoint?: string;
  tracesEndpoint?: string;
  metricsEndpoint?: string;
  protocol?: 'http/protobuf' | 'http/json';
  /** May hold secrets (an API key header): redacted like any secret variable. */
  headers?: Record<string, string>;
  serviceName?: string;
  resourceAttributes?: Record<string, string>;
  /** The conventions' opt-in content attributes (messages, tool arguments and results), redacted. */
  captureContent?: boolean;
  metrics?: boolean;
  location: SourceLocation;
}
