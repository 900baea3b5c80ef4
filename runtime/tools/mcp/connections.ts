// The MCP servers of one run. Each server is started (stdio) or connected (Streamable HTTP) on first
// use and shared by every task. A server that dies is restarted once, on the next call; after a
// second failure every call is an error result naming the server. Nothing here ever rejects out of
// a tool call, and `closeAll()` leaves no child process behind.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';

import type { McpPromptSkill, McpServer } from '../../../config/graph.js';
import { DEFAULT_MCP_MAX_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS } from '../../../config/stages/tools.js';
import type { ToolResult, ToolSpec } from '../types.js';
import { textResult } from '../types.js';
import { createMcpClient, samplingOff, type InFlightCall, type McpElicitor, type McpLogMessage, type McpSampler } from './client.js';
import { appendTail, delay, describeError, seconds } from './connectionText.js';
import { exitedCleanly, openTransport, progressOf, schemaProblem, StdioTransport, withStderr, type Live, type ServerState } from './live.js';
import { CredentialStore } from './credentialStore.js';
import { loadPromptSkill, promptSkills, type PromptSkillsOutcome } from './prompts.js';
import { mcpResourcesSpec } from './resources.js';
import { toToolResult } from './results.js';
import { mcpToolSpec } from './toolSpec.js';
import { isCallable, toolInfoFromSdk, type McpToolInfo } from './toolInfo.js';
import type { McpCallOptions, McpConnectionOptions, McpRequestOutcome, McpRequests, McpToolProgress } from './requests.js';

export type { McpToolInfo } from './toolInfo.js';

/**
 * Default bound on starting a server and its handshake, and on listing its tools: 30 s, room for a
 * server started through `npx` or on a busy machine (10 s was missed by reference servers at load 30).
 */
export const MCP_START_TIMEOUT_MS = 30_000;

export type { McpLogMessage, McpSampler, McpSamplingRequest } from './client.js';
export type { McpCaller, McpCallOptions, McpConnectionOptions, McpRequestOutcome, McpToolProgress } from './requests.js';

/** Thrown by `get`/`listTools` when a server cannot be reached; tool calls return error results instead. */
export class McpServerError extends Error {
  constructor(
    readonly server: string,
    message: string,
  ) {
    super(message);
    this.name = 'McpServerError';
  }
}

/** The SDK's stdio read limit (STDIO_DEFAULT_MAX_BUFFER_SIZE), as the message about a larger result says it. */
const STDIO_READ_LIMIT_MB = 10;

/** Starts allowed per server and run: the first start plus one restart. */
const MAX_STARTS = 2;
const CLOSE_GRACE_MS = 2000;


export class McpConnections implements McpRequests {
  private readonly states = new Map<string, ServerState>();
  private readonly closing = new Set<Promise<void>>();
  private closed = false;
  private readonly connectTimeoutMs: number;
  private readonly listTimeoutMs: number;
  private readonly callTimeoutMs: number;
  private credentials?: CredentialStore;

  constructor(private readonly options: McpConnectionOptions = {}) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? MCP_START_TIMEOUT_MS;
    this.listTimeoutMs = options.listTimeoutMs ?? MCP_START_TIMEOUT_MS;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  }

  /** The folders a server may work in, absolute: its `roots`, else the run's workspace. */
  rootsOf(server: McpServer): readonly string[] {
    return server.roots ?? this.options.defaultRoots ?? [];
  }

  /** The connected client, starting the server on first use. Throws McpServerError when unreachable. */
  async get(server: McpServer): Promise<Client> {
    return (await this.ensureLive(this.stateOf(server))).client;
  }

  /** The server's tools in the server's order, listed once per run. Throws McpServerError. */
  async listToolInfos(server: McpServer): Promise<McpToolInfo[]> {
    const state = this.stateOf(server);
    if (!state.tools) {
      state.tools = this.fetchTools(state);
      // A failed listing is retried by the next caller rather than cached.
      state.tools.catch(() => {
        state.tools = undefined;
      });
    }
    return state.tools;
  }

  /** The server's callable tools as ToolSpecs (`mcp.<server>.<tool>`; task-only tools are left out). Throws McpServerError. */
  async listTools(server: McpServer): Promise<ToolSpec[]> {
    const infos = await this.listToolInfos(server);
    const { instructions } = this.stateOf(server);
    return infos.filter(isCallable).map((info) => mcpToolSpec(server, info, this, instructions, this.options.secrets));
  }

  /** Names of the server's tools that only run as MCP tasks (left out of listTools). Throws McpServerError. */
  async taskOnlyTools(server: McpServer): Promise<string[]> {
    return (await this.listToolInfos(server)).filter((info) => !isCallable(info)).map((info) => info.name);
  }

  /** The server's `mcp.<server>.resources` tool (the server is contacted when the tool is used). */
  resourcesTool(server: McpServer): ToolSpec {
    return mcpResourcesSpec(server, this);
  }

  /** The skills `mcp.<server>.prompts[.<prompt>]` stands for (the server is contacted). */
  promptSkills(server: McpServer, prompt?: string): Promise<PromptSkillsOutcome> {
    return promptSkills(server, this, prompt);
  }

  /** Gets a prompt skill's messages with the model's arguments, as a tool result. */
  loadPrompt(server: McpServer, prompt: McpPromptSkill, args: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<ToolResult> {
    return loadPromptSkill(server, this, prompt, args, signal);
  }

  /** Calls a tool. Every failure (unreachable server, crash, timeout, cancellation) is an error result. */
  async callTool(server: McpServer, tool: string, args: Record<string, unknown>, call: McpCallOptions = {}): Promise<ToolResult> {
    const { signal } = call;
    const state = this.stateOf(server);
    let live: Live;
    try {
      live = await this.ensureLive(state);
    } catch (err) {
      return textResult(err instanceof Error ? err.message : String(err), true);
    }
    const what = `the call to "${tool}"`;
    const timeout = server.timeoutMs ?? this.callTimeoutMs;
    const maxTotalTimeout = Math.max(timeout, server.maxTimeoutMs ?? DEFAULT_MCP_MAX_TIMEOUT_MS);
    const started = Date.now();
    let progressed = false;
    const inFlight: InFlightCall = { asked: false, ...(call.caller ? { caller: call.caller } : {}) };
    const asked = () =>
      inFlight.asked
        ? textResult(`MCP server "${server.name}" asked the operator a question during ${what}, and nobody can be asked here, so the call cannot complete`, true)
        : textResult(`MCP server "${server.name}" asked for a model completion during ${what}, but ${samplingOff(server.name)}`, true);
    const refused = () => inFlight.asked || inFlight.refusedSampling === true;
    live.inFlight.add(inFlight);
    try {
      // A progress callback makes the SDK send a progress token; each notification restarts the
      // timeout, up to maxTotalTimeout for the whole call.
      const onprogress = (p: Progress) => {
        progressed = true;
        if (call.caller && this.options.onProgress) this.options.onProgress(progressOf(server.name, tool, call.caller, p));
      };
      const options = { timeout, resetTimeoutOnProgress: true, maxTotalTimeout, onprogress, ...(signal ? { signal } : {}) };
      const meta = call.caller ? this.options.traceMeta?.(call.caller.callId) : undefined;
      const result = await live.client.callTool({ name: tool, arguments: args, ...(meta ? { _meta: meta } : {}) }, undefined, options);
      live.answered = true;
      // A change the server announced during the call (it arrives before the result) is in place first.
      await state.refreshing;
      // A question that waits for the operator: the call's result is not used; it runs again on resume.
      if (inFlight.parked) throw inFlight.parked;
      // Whatever the server made of the refusal, the model is told why the call failed.
      if (refused() && result.isError === true) return asked();
      return toToolResult(result as CallToolResult);
    } catch (err) {
      if (inFlight.parked) throw inFlight.parked;
      if (signal?.aborted) return textResult(`${what} on MCP server "${server.name}" was cancelled`, true);
      if (refused() && err instanceof McpError) return asked();
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        const total = Date.now() - started >= maxTotalTimeout;
        const why = total
          ? `it ran for ${seconds(maxTotalTimeout)} (max_timeout) although it reported progress`
          : progressed
            ? `no progress for ${seconds(timeout)} since the last report`
            : `no result and no progress within ${seconds(timeout)}`;
        return textResult(`${what} on MCP server "${server.name}" timed out: ${why}`, true);
      }
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) {
        return textResult(`MCP server "${server.name}" rejected ${what}: ${err.message}`, true);
      }
      // A result that breaks the protocol's schema: the server is alive and answered, so it is not
      // restarted, and the model reads what was wrong, not the validator's dump.
      const schema = schemaProblem(err);
      if (schema !== undefined) return textResult(`MCP server "${server.name}" answered ${what} with a result that does not follow the MCP specification (${schema}), so it cannot be used`, true);
      // The SDK drops a stdio connection whose message passes its read limit: the server did nothing wrong.
      if (live.oversized) {
        this.retire(state, live, 'a message larger than the read limit', false);
        return textResult(`the result of ${what} on MCP server "${server.name}" is larger than ${STDIO_READ_LIMIT_MB} MB, the most read from a server, so it was not read; ask for less (the server is started again for the next call)`, true);
      }
      // A stdio server that exits cleanly (code 0) after each answer (one process per call, as some
      // are written) was already on its way out when this call was written to it: it never ran the
      // call. It is started again, uncounted, and the call sent once more; a second such exit counts.
      if (exitedCleanly(live)) {
        if (call.resent !== true) {
          this.retire(state, live, 'the server exited after its previous answer', false);
          return this.callTool(server, tool, args, { ...call, resent: true });
        }
        state.failures++;
      }
      // The transport failed: the process exited, the HTTP session vanished or the host went away.
      this.retire(state, live, describeError(err));
      // An unknown session (the HTTP server restarted while we were idle) means the call was never
      // run, so it is safe to reconnect and send it again right away.
      if (err instanceof StreamableHTTPError && err.code === 404 && state.failures < MAX_STARTS) {
        return this.callTool(server, tool, args, call);
      }
      const next = state.failures >= MAX_STARTS ? 'it will not be restarted again' : 'it will be restarted on the next call';
      return textResult(`MCP server "${server.name}" stopped during ${what} (${next}): ${state.lastError ?? 'unknown error'}`, true);
    } finally {
      live.inFlight.delete(inFlight);
    }
  }

  /**
   * Runs one request other than a tool call (listing or reading resources, getting a prompt) on the
   * server's client. Every failure is an error result naming the server; a broken transport counts
   * against the server's restarts as in callTool.
   */
  async request<T>(server: McpServer, what: string, send: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>, signal?: AbortSignal): Promise<McpRequestOutcome<T>> {
    const failed = (text: string): McpRequestOutcome<T> => ({ ok: false, error: textResult(text, true) });
    const state = this.stateOf(server);
    let live: Live;
    try {
      live = await this.ensureLive(state);
    } catch (err) {
      return failed(err instanceof Error ? err.message : String(err));
    }
    const timeout = server.timeoutMs ?? this.callTimeoutMs;
    try {
      return { ok: true, value: await send(live.client, { timeout, ...(signal ? { signal } : {}) }) };
    } catch (err) {
      if (signal?.aborted) return failed(`${what} on MCP server "${server.name}" was cancelled`);
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return failed(`${what} on MCP server "${server.name}" timed out after ${seconds(timeout)}`);
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) return failed(`MCP server "${server.name}" rejected ${what}: ${err.message}`);
      this.retire(state, live, describeError(err));
      return failed(`MCP server "${server.name}" stopped during ${what}: ${state.lastError ?? 'unknown error'}`);
    }
  }

  /** Closes every server (stdio children are terminated). Later calls return error results. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const pending = [...this.states.values()].map(async (state) => {
      const live = state.live ?? (await state.connecting?.catch(() => undefined));
      if (live) this.shutdown(live);
    });
    await Promise.all(pending);
    await Promise.all([...this.closing]);
  }

  private stateOf(server: McpServer): ServerState {
    let state = this.states.get(server.name);
    if (!state) {
      state = { server, failures: 0 };
      const known = this.options.knownTools?.get(server.name);
      if (known) state.tools = Promise.resolve(known);
      this.states.set(server.name, state);
    }
    return state;
  }

  private ensureLive(state: ServerState): Promise<Live> {
    const name = state.server.name;
    if (this.closed) return Promise.reject(new McpServerError(name, `MCP server "${name}" is closed: the run is ending`));
    if (state.live && !state.live.retired) return Promise.resolve(state.live);
    if (state.connecting) return state.connecting;
    if (state.failures >= MAX_STARTS) {
      return Promise.reject(
        new McpServerError(name, `MCP server "${name}" is unavailable: it failed ${state.failures} times during this run and is not restarted again. Last error: ${state.lastError ?? 'unknown'}`),
      );
    }
    const connecting = this.connect(state).then(
      (live) => {
        state.connecting = undefined;
        if (this.closed) {
          this.shutdown(live);
          throw new McpServerError(name, `MCP server "${name}" is closed: the run is ending`);
        }
        state.live = live;
        return live;
      },
      (err: unknown) => {
        state.connecting = undefined;
        state.failures++;
        state.lastError = describeError(err);
        throw new McpServerError(name, `MCP server "${name}" could not be started: ${state.lastError}`);
      },
    );
    state.connecting = connecting;
    return connecting;
  }

  private async connect(state: ServerState): Promise<Live> {
    const transport = openTransport(state.server, this.options.cwd, () => (this.credentials ??= this.options.credentials ?? new CredentialStore()), this.options.allowedHosts);
    const inFlight = new Set<InFlightCall>();
    const client = createMcpClient({
      server: state.server.name,
      version: this.options.clientVersion ?? '0.1.0',
      roots: this.rootsOf(state.server),
      onLog: this.options.onLog,
      inFlight,
      sampling: state.server.sampling ? { sample: this.options.sample } : undefined,
      elicit: this.options.elicit,
      onToolsChanged: () => this.toolsChanged(state),
      onPromptsChanged: () => this.options.onPromptsChanged?.(state.server.name),
    });
    const live: Live = { client, transport, ready: false, retired: false, stderr: [], inFlight };
    if (transport instanceof StdioTransport) {
      transport.stderr?.on('data', (chunk: Buffer | string) => appendTail(live.stderr, String(chunk)));
    }
    client.onclose = () => {
      // A server that exits with no call in flight (one that ends after each answer) is started
      // again for the next call without counting as a failure.
      // One that exits cleanly after having answered is that kind too: callTool sends its call again.
      if (live.ready) this.retire(state, live, 'the server closed the connection', live.inFlight.size > 0 && live.oversized !== true && !exitedCleanly(live));
    };
    // Transport errors surface through the pending requests; only an oversized message is noted,
    // so the call it belonged to says so instead of "the server closed the connection".
    client.onerror = (err: Error) => {
      if (/ReadBuffer exceeded maximum size/.test(err.message)) live.oversized = true;
    };
    try {
      await client.connect(transport, { timeout: this.connectTimeoutMs });
      // The process may have exited between the handshake and here.
      if (!client.transport) throw new Error('the server closed the connection right after the handshake');
    } catch (err) {
      live.retired = true;
      this.shutdown(live);
      throw new Error(withStderr(describeError(err), live));
    }
    live.ready = true;
    state.instructions = client.getInstructions();
    return live;
  }

  private async fetchTools(state: ServerState): Promise<McpToolInfo[]> {
    const live = await this.ensureLive(state);
    const infos: McpToolInfo[] = [];
    try {
      let cursor: string | undefined;
      do {
        const page = await live.client.listTools(cursor ? { cursor } : {}, { timeout: this.listTimeoutMs });
        infos.push(...page.tools.map(toolInfoFromSdk));
        cursor = page.nextCursor;
      } while (cursor);
    } catch (err) {
      const name = state.server.name;
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        throw new McpServerError(name, `MCP server "${name}" did not list its tools within ${this.listTimeoutMs / 1000} s`);
      }
      if (!(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed) this.retire(state, live, describeError(err));
      throw new McpServerError(name, `MCP server "${name}" could not list its tools: ${withStderr(describeError(err), live)}`);
    }
    return infos;
  }

  /** Lists the server's tools again and hands the new list on; a failed listing keeps the old list. */
  private toolsChanged(state: ServerState): void {
    const previous = state.refreshing ?? Promise.resolve();
    state.refreshing = previous.then(async () => {
      const before = await state.tools?.catch(() => undefined);
      const fresh = this.fetchTools(state);
      try {
        const infos = await fresh;
        state.tools = fresh;
        // A server announces each registration on its own (several at start, two for a swap): a list
        // the same as the one held is no change, neither recorded nor shown.
        if (before !== undefined && JSON.stringify(before) === JSON.stringify(infos)) return;
        await this.options.onToolsChanged?.(state.server.name, infos);
      } catch {
        // The server is unreachable or refused the listing: its calls report that themselves.
      }
    });
  }

  /** Declares a connection dead (once) and, unless told otherwise, counts it against the server's restarts. */
  private retire(state: ServerState, live: Live, reason: string, counted = true): void {
    if (live.retired) return;
    live.retired = true;
    if (state.live === live) state.live = undefined;
    if (counted) state.failures++;
    state.lastError = withStderr(reason, live);
    this.shutdown(live);
  }

  /** Closes a connection in the background; closeAll waits for every such close. */
  private shutdown(live: Live): void {
    live.retired = true;
    const closing = (async () => {
      if (live.transport instanceof StreamableHTTPClientTransport && live.ready) {
        // Politely end the HTTP session, but never wait long on a host that is gone.
        await Promise.race([live.transport.terminateSession().catch(() => undefined), delay(CLOSE_GRACE_MS)]);
      }
      await live.client.close().catch(() => undefined);
      await live.transport.close().catch(() => undefined);
    })();
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
  }
}
