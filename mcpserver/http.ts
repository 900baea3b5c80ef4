// `/mcp` on `squadron serve`: MCP over Streamable HTTP, one session per client (the SDK's transport;
// a session is bound to the token that opened it). Sessions live in memory: after a restart a client
// opens a new one and finds its runs again by id (tasks/get, get_run_details, squadron://runs/<id>).

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AgentHost } from './host.js';
import { createMcpServer } from './mcpServer.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  tokenId: string;
}

export class McpHttpEndpoint {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly version: string) {}

  /** Answers one request to /mcp for a caller already authenticated as `tokenId`. */
  async handle(req: IncomingMessage, res: ServerResponse, host: AgentHost, tokenId: string): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.sessions.get(id);
      if (!session || session.tokenId !== tokenId) return notFound(res);
      return session.transport.handleRequest(req, res);
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void this.sessions.set(sid, { transport, tokenId }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await createMcpServer(host, this.version).connect(transport);
    await transport.handleRequest(req, res);
  }

  /** Ends every session (the server drains). */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.sessions.clear();
  }
}

function notFound(res: ServerResponse): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: start a new session (initialize)' }, id: null });
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(body);
}

export type { AgentHost };
