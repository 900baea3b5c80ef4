// The words of a run's MCP connections that the tools built on them speak (a tool call, a request
// with its outcome, who is calling and its progress) and what the connections are given at start.
// The tool specs, prompts and resources take `McpRequests`, so they need not import the connections.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { McpServer } from '../../../config/graph.js';
import type { ToolResult } from '../types.js';
import type { McpElicitor, McpLogMessage, McpSampler } from './client.js';
import type { McpToolInfo } from './toolInfo.js';
import type { CredentialStore } from './credentialStore.js';
import type { SecretValue } from '../../../store/redact.js';

export interface McpConnectionOptions {
  /** Bound on starting a server and the MCP handshake (default MCP_START_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** The project's allowed_hosts: remote servers are under the host policy (none given: not checked, for tests of the client alone). */
  allowedHosts?: readonly string[];
  /**
   * The run's secrets (variables, API keys, values computed from them): a tool's result is masked,
   * one way, of those its server's config holds (env, headers, url, args), so a server that echoes
   * its credentials shows the model a placeholder.
   */
  secrets?: readonly SecretValue[];
  /** Bound on listing a server's tools (default MCP_START_TIMEOUT_MS). */
  listTimeoutMs?: number;
  /** Bound on one tool call without progress notifications, for servers without `timeout` (default 60 s). */
  callTimeoutMs?: number;
  /** Working directory of stdio servers (usually the project root). */
  cwd?: string;
  /** OAuth credentials of HTTP servers that need a login (default: the user's encrypted store). */
  credentials?: CredentialStore;
  /** The roots of servers without `roots` (the run's workspace); none when absent. */
  defaultRoots?: readonly string[];
  /** Receives every progress notification of a tool call (the run turns them into events). */
  onProgress?: (progress: McpToolProgress) => void;
  /** Receives the servers' log messages (`notifications/message`). */
  onLog?: (message: McpLogMessage) => void;
  /** The trace context a tool call carries in `params._meta` (W3C `traceparent`), by its call id; absent: none. */
  traceMeta?: (callId: string) => Record<string, string> | undefined;
  /** Answers the sampling requests of servers with `sampling = true` (a run's model); absent: refused. */
  sample?: McpSampler;
  /** Asks the run's operator a server's questions (elicitation); absent: refused. */
  elicit?: McpElicitor;
  /**
   * A server's new tool list after `notifications/tools/list_changed` (all its tools, as listed). The
   * call during which the change arrived returns only once this has settled, so the agent's next
   * turn already holds the new tools.
   */
  onToolsChanged?: (server: string, tools: McpToolInfo[]) => Promise<void> | void;
  /**
   * A server said its prompts changed (`notifications/prompts/list_changed`). Prompt skills are not
   * refreshed (an agent's skill catalog is part of its system prompt), so this is only reported.
   */
  onPromptsChanged?: (server: string) => void;
  /** Tool lists recorded by an earlier process of the run (resume): used instead of listing, until the server reports a change. */
  knownTools?: ReadonlyMap<string, McpToolInfo[]>;
  clientVersion?: string;
}

/** Who made a call: the run's names for it, passed back with its progress. */
export interface McpCaller {
  task: string;
  agent: string;
  callId: string;
  /** The calling session (a question the server asks during the call is tied to it). */
  sessionId?: string;
}

export interface McpToolProgress extends McpCaller {
  server: string;
  tool: string;
  progress: number;
  total?: number;
  message?: string;
}

export type McpRequestOutcome<T> = { ok: true; value: T } | { ok: false; error: ToolResult };

/** Per call: cancellation, and who is calling (for progress). */
export interface McpCallOptions {
  signal?: AbortSignal;
  caller?: McpCaller;
  /** Set on the one resend of a call that met a server exiting after its previous answer. */
  resent?: boolean;
}

/** What a tool, a prompt or a resource reader asks of the run's connections. */
export interface McpRequests {
  /** Calls `tool` on `server`; never rejects (a failure is an error result). */
  callTool(server: McpServer, tool: string, args: Record<string, unknown>, call?: McpCallOptions): Promise<ToolResult>;
  /** Sends one request to a live `server` (`what` names it in an error). */
  request<T>(server: McpServer, what: string, send: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>, signal?: AbortSignal): Promise<McpRequestOutcome<T>>;
}
