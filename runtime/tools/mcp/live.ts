// One live connection to an MCP server and the state a run keeps per server: the transport it is
// opened on (stdio or Streamable HTTP with OAuth), and the wording of what went wrong on it (its
// stderr tail, a result that breaks the protocol's schema), for connections.ts.

import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';

import type { McpServer } from '../../../config/graph.js';
import type { InFlightCall } from './client.js';
import { STDERR_TAIL_CHARS } from './connectionText.js';
import type { CredentialStore } from './credentialStore.js';
import { hostGuardedFetch } from './hostGuard.js';
import { StoredOAuthProvider, usesOwnAuthorization } from './oauthProvider.js';
import type { McpCaller, McpToolProgress } from './requests.js';
import type { McpToolInfo } from './toolInfo.js';

/**
 * The SDK closes a transport itself when the handshake fails, without awaiting it; a second close()
 * then returns at once while the child may still be running. Sharing one close promise lets
 * closeAll wait until the child has really exited.
 */
export class StdioTransport extends StdioClientTransport {
  private closing?: Promise<void>;
  /** The server process's exit code once it has exited (null when a signal ended it). */
  exitCode: number | null | undefined;

  override async start(): Promise<void> {
    await super.start();
    // The SDK forgets its child on close; the exit code tells a clean exit from a crash.
    (this as unknown as { _process?: ChildProcess })._process?.once('exit', (code) => (this.exitCode = code));
  }

  override close(): Promise<void> {
    this.closing ??= super.close();
    return this.closing;
  }
}

/** A stdio server that exited with code 0 after answering a call on this connection. */
export function exitedCleanly(live: Live): boolean {
  return live.transport instanceof StdioTransport && live.transport.exitCode === 0 && live.answered === true;
}

export interface Live {
  /** Set when the SDK dropped the connection over a message past its stdio read limit. */
  oversized?: boolean;
  /** Set once a tool call on this connection was answered. */
  answered?: boolean;
  client: Client;
  transport: StdioTransport | StreamableHTTPClientTransport;
  /** Set once the handshake completed; a close before that is a failed start, not a death. */
  ready: boolean;
  /** Closed by us or declared dead: its close events no longer count. */
  retired: boolean;
  stderr: string[];
  /** Tool calls waiting for their result; a server's question to the operator is charged to them. */
  inFlight: Set<InFlightCall>;
}

export interface ServerState {
  server: McpServer;
  live?: Live;
  connecting?: Promise<Live>;
  /** Deaths plus failed starts. */
  failures: number;
  lastError?: string;
  tools?: Promise<McpToolInfo[]>;
  /** The server's `instructions` from its latest initialize answer. */
  instructions?: string;
  /** Settles once the latest `tools/list_changed` was handled (new list fetched, listeners told). */
  refreshing?: Promise<void>;
}

/** The transport a server's config names (nothing is started until the client connects on it). */
export function openTransport(server: McpServer, cwd: string | undefined, credentials: () => CredentialStore, allowedHosts?: readonly string[]): StdioTransport | StreamableHTTPClientTransport {
  const config = server.transport;
  return config.kind === 'stdio'
    ? new StdioTransport({
        command: config.command,
        args: [...config.args],
        env: { ...config.env },
        // Piped, not inherited: server logs must not interleave with our output; the tail explains crashes.
        stderr: 'pipe',
        ...(cwd !== undefined ? { cwd } : {}),
      })
    : new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
        // Remote servers are under the host policy (allowed_hosts), every request OAuth's included.
        ...(allowedHosts !== undefined ? { fetch: hostGuardedFetch(allowedHosts) } : {}),
        // OAuth unless the config sends its own Authorization header: tokens from
        // `squadron mcp login`, refreshed by the SDK; without them the call names the login command.
        ...(usesOwnAuthorization(config.headers) ? {} : { authProvider: new StoredOAuthProvider({ name: server.name, url: config.url }, credentials()) }),
      });
}

/** For an answer that failed the SDK's schema (a zod error): its first problems, in a line; else undefined. */
export function schemaProblem(err: unknown): string | undefined {
  // zod's error (v3 and v4 name it differently): an Error with an `issues` list.
  const issues = err instanceof Error ? (err as Error & { issues?: unknown }).issues : undefined;
  if (!Array.isArray(issues)) return undefined;
  const shown = (issues as { path?: (string | number)[]; message?: string }[]).slice(0, 3).map((i) => `${(i.path ?? []).join('.') || 'result'}: ${(i.message ?? 'invalid').slice(0, 100)}`);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return shown.length === 0 ? 'invalid result' : `${shown.join('; ')}${more}`;
}

export function withStderr(message: string, live: Live): string {
  const text = live.stderr.join('').trim();
  if (text === '') return message;
  const tail = text.length > STDERR_TAIL_CHARS ? `…${text.slice(-STDERR_TAIL_CHARS)}` : text;
  return `${message}\nserver stderr:\n${tail}`;
}

export function progressOf(server: string, tool: string, caller: McpCaller, p: Progress): McpToolProgress {
  const out: McpToolProgress = { ...caller, server, tool, progress: p.progress };
  if (p.total !== undefined) out.total = p.total;
  if (p.message !== undefined) out.message = p.message;
  return out;
}
