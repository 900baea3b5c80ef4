// The MCP client Squadron presents to a server: its one capability (roots, answered with the given
// folders) and what it does with what a server sends unasked — log messages are passed on, a
// question to the operator (elicitation) is refused with a clear reason and charged to the calls
// in flight, and any other request (sampling…) is refused by name.

import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, ListRootsRequestSchema, LoggingMessageNotificationSchema, McpError, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

/** Squadron has no human-input path yet: what a server that asks one (elicitation) is told. */
export const NO_HUMAN_INPUT = 'this server asked the operator a question; Squadron does not support human input yet';

export interface McpLogMessage {
  server: string;
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** A tool call waiting for its result; `asked` is set when the server asks the operator meanwhile. */
export interface InFlightCall {
  asked: boolean;
}

export interface ClientSetup {
  server: string;
  version: string;
  /** Absolute folders, answered to `roots/list`. */
  roots: readonly string[];
  onLog?: ((message: McpLogMessage) => void) | undefined;
  /** The calls in flight on this connection (read when the server asks a question). */
  inFlight: ReadonlySet<InFlightCall>;
}

export function createMcpClient(setup: ClientSetup): Client {
  // Roots are the only client capability: no sampling, no elicitation, so a well-behaved server never asks for them.
  const client = new Client({ name: 'squadron', version: setup.version }, { capabilities: { roots: {} } });
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
  client.fallbackRequestHandler = async (request) => {
    if (request.method === 'elicitation/create') {
      for (const call of setup.inFlight) call.asked = true;
      throw new McpError(ErrorCode.InvalidRequest, NO_HUMAN_INPUT);
    }
    throw new McpError(ErrorCode.MethodNotFound, `Squadron does not support ${request.method}`);
  };
  return client;
}
