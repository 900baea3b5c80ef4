// What a tool is to the runtime: a canonical ref, the API name the model sees, a JSON schema for its
// input and an execute function. Builtins, custom `tool` blocks and MCP tools all become ToolSpecs.
// Who may call which tool is decided elsewhere (the agent's authorized set), never here.

import type { JsonSchema, ToolResultContent } from '../providers/types.js';

export type ToolSource = 'builtin' | 'custom' | 'mcp';

export interface ToolResult {
  content: ToolResultContent[];
  isError: boolean;
  /** MCP `structuredContent`, passed through faithfully. */
  structured?: unknown;
  /**
   * MCP content with no canonical part (embedded resources, resource links, audio), kept verbatim
   * for the store and for display. `content` always carries a text rendering of each for the model.
   */
  resources?: ToolResultResource[];
}

export interface ToolResultResource {
  kind: 'resource' | 'resource_link' | 'audio';
  uri?: string;
  name?: string;
  mimeType?: string;
  /** Text of a text resource. */
  text?: string;
  /** base64 payload of a blob resource or audio clip. */
  blob?: string;
}

export interface ToolContext {
  /** The run's workspace directory; file tools are confined to it. */
  workspaceDir: string;
  signal: AbortSignal;
  runId: string;
  task: string;
  agent: string;
  /** The tool_use id of this call (stable across resume). */
  callId: string;
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
  /** Validates `input` against `inputSchema` first; a mismatch is an error result, not a throw. */
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export { apiNameOf } from '../../config/toolNames.js';

export function textResult(text: string, isError = false): ToolResult {
  return { content: [{ type: 'text', text }], isError };
}
