// The MCP client Squadron presents to a server: its capabilities (roots, answered with the given
// folders; sampling when the block allows it, answered by the run) and what it does with what a
// server sends unasked — log messages are passed on, a question to the operator (elicitation) or a
// completion request while sampling is off is refused with a clear reason and charged to the calls
// in flight, and any other request is refused by name.

import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';

/** What a server that asks the operator a question where nobody can be asked (validate, plan, tools, another runner's task) is told. */
export const NO_HUMAN_INPUT = 'this server asked the operator a question, and nobody can be asked here';

export interface McpLogMessage {
  server: string;
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/**
 * A tool call waiting for its result; `asked` is set when the server asks the operator meanwhile,
 * `refusedSampling` when it asks for a completion while sampling is off.
 */
export interface InFlightCall {
  asked: boolean;
  /** Questions the server asked during the call so far. */
  elicited?: number;
  /** Set when a question must wait for the operator: the connection throws it after the call. */
  parked?: Error;
  refusedSampling?: boolean;
  /** Who made the call: a sampling request during it is answered with that agent's task's model. */
  caller?: McpSamplingCaller;
}

export interface McpSamplingCaller {
  task: string;
  agent: string;
  callId: string;
  sessionId?: string;
}

/** A server's `elicitation/create` during a call: `seq` counts the questions of that call (0, 1, …). */
export interface McpElicitationRequest {
  server: string;
  caller: McpSamplingCaller;
  seq: number;
  params: ElicitRequest['params'];
}

/**
 * Answers a question to the operator: the result for the server, or `park` — nobody can answer now,
 * so the server is told the question was cancelled and the call is left to run again on resume
 * (thrown by the connection once the call returns).
 */
export type McpElicitor = (request: McpElicitationRequest) => Promise<{ result: ElicitResult } | { park: Error }>;

/** A server's `sampling/createMessage`, with the call it arrived during. */
export interface McpSamplingRequest {
  server: string;
  caller: McpSamplingCaller;
  params: CreateMessageRequest['params'];
  signal: AbortSignal;
}

export type McpSampler = (request: McpSamplingRequest) => Promise<CreateMessageResult>;

/** What a server that asks for a completion without `sampling = true` is told. */
export function samplingOff(server: string): string {
  return `sampling is off for MCP server "${server}": set sampling = true on its mcp block to let it ask for model completions`;
}

export interface ClientSetup {
  server: string;
  version: string;
  /** Absolute folders, answered to `roots/list`. */
  roots: readonly string[];
  onLog?: ((message: McpLogMessage) => void) | undefined;
  /** The calls in flight on this connection (read when the server asks a question or for a completion). */
  inFlight: ReadonlySet<InFlightCall>;
  /** Called on `notifications/tools/list_changed`. */
  onToolsChanged?: (() => void) | undefined;
  /** Called on `notifications/prompts/list_changed`. */
  onPromptsChanged?: (() => void) | undefined;
  /** `sampling = true`: declared as a capability; requests go to `sample` (absent: validate, plan, tools, which run no model). */
  sampling?: { sample?: McpSampler | undefined } | undefined;
  /** Questions to the operator (a run's desk): declared as the elicitation capability when given. */
  elicit?: McpElicitor | undefined;
}

export function createMcpClient(setup: ClientSetup): Client {
  // Roots, sampling when the block allows it, and elicitation when a run's operator can be asked.
  const capabilities = { roots: {}, ...(setup.sampling ? { sampling: {} } : {}), ...(setup.elicit ? { elicitation: {} } : {}) };
  const client = new Client({ name: 'squadron', version: setup.version }, { capabilities });
  const roots = setup.roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) || dir }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  const { onLog } = setup;
  if (onLog) {
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      const message: McpLogMessage = { server: setup.server, level: params.level, data: params.data };
      if (params.logger !== undefined) message.logger = params.logger;
      onLog(message);
    });
  }
  const { onToolsChanged } = setup;
  if (onToolsChanged) client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolsChanged());
  const { onPromptsChanged } = setup;
  if (onPromptsChanged) client.setNotificationHandler(PromptListChangedNotificationSchema, () => onPromptsChanged());
  const { sampling } = setup;
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      // Over stdio a request carries no link to the call it serves: it is charged to the oldest call in flight.
      const call = [...setup.inFlight].find((c) => c.caller !== undefined);
      if (!call?.caller) throw new McpError(ErrorCode.InvalidRequest, 'Squadron answers sampling requests only during a tool call');
      if (!sampling.sample) throw new McpError(ErrorCode.InvalidRequest, 'no model runs here (validate, plan and tools do not sample)');
      try {
        return await sampling.sample({ server: setup.server, caller: call.caller, params: request.params, signal: extra.signal });
      } catch (err) {
        if (err instanceof McpError) throw err;
        throw new McpError(ErrorCode.InternalError, `Squadron could not answer the sampling request: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }
  const { elicit } = setup;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      // As for sampling: over stdio a request is charged to the oldest call in flight.
      const call = [...setup.inFlight].find((c) => c.caller !== undefined);
      if (!call?.caller?.sessionId) return { action: 'decline' as const };
      const seq = call.elicited ?? 0;
      call.elicited = seq + 1;
      const outcome = await elicit({ server: setup.server, caller: call.caller, seq, params: request.params });
      if ('park' in outcome) {
        call.parked = outcome.park;
        return { action: 'cancel' as const };
      }
      return outcome.result;
    });
  }
  client.fallbackRequestHandler = async (request) => {
    if (request.method === 'sampling/createMessage') {
      for (const call of setup.inFlight) call.refusedSampling = true;
      throw new McpError(ErrorCode.InvalidRequest, samplingOff(setup.server));
    }
    if (request.method === 'elicitation/create') {
      for (const call of setup.inFlight) call.asked = true;
      throw new McpError(ErrorCode.InvalidRequest, NO_HUMAN_INPUT);
    }
    throw new McpError(ErrorCode.MethodNotFound, `Squadron does not support ${request.method}`);
  };
  return client;
}
