// What a tool is to the runtime: a canonical ref, the API name the model sees, a JSON schema for its
// input and an execute function. Builtins, custom `tool` blocks and MCP tools all become ToolSpecs.
// Who may call which tool is decided elsewhere (the agent's authorized set), never here.

import type { JsonSchema } from '../providers/types.js';
import type { ToolResult } from '../../core/toolResults.js';
import type { Value } from '../../config/hcl/value.js';

export type { ToolResult, ToolResultResource } from '../../core/toolResults.js';
export { textResult } from '../../core/toolResults.js';

export type ToolSource = 'builtin' | 'custom' | 'mcp' | 'plugin';

export interface ToolContext {
  /** The run's workspace directory; file tools are confined to it. */
  workspaceDir: string;
  signal: AbortSignal;
  runId: string;
  task: string;
  agent: string;
  /** The tool_use id of this call (stable across resume). */
  callId: string;
  /** The calling session (an MCP server's question during the call is tied to it). */
  sessionId?: string;
  /** The run's datasets, for builtins.dataset.* (absent outside a run). */
  datasets?: DatasetAccess;
}

/** What builtins.dataset.* reach of the run's datasets (runtime/iteration/filledDatasets.ts makes it). */
export interface DatasetAccess {
  set(name: string, items: readonly Value[], append: boolean): Promise<{ ok: boolean; message: string }>;
  /** The items, or why there are none to give. */
  items(name: string): Promise<Value[] | string>;
}

export interface ToolSpec {
  /** Canonical dotted ref: `builtins.http.get`, `tools.weather`, `mcp.fs.read_file`. */
  ref: string;
  /** Name sent to the model: the ref with dots replaced by underscores. */
  apiName: string;
  description: string;
  inputSchema: JsonSchema;
  /** Display/search group: `builtins.http`, `tools`, `mcp.fs`. */
  group: string;
  source: ToolSource;
  /** Safe to re-run after an interruption (e.g. HTTP GET, current_time, file read). */
  idempotent: boolean;
  /** How the tool's source asks its group to be used (an MCP server's `instructions`), for the agent's prompt. */
  groupInstructions?: string;
  /** What the tool's source says of it (an MCP server's annotations: `read-only`, `destructive`…), shown by plan. */
  hints?: readonly string[];
  /** Validates `input` against `inputSchema` first; a mismatch is an error result, not a throw. */
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export { apiNameOf } from '../../config/toolNames.js';
