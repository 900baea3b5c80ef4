// The endpoints other agents use, mounted beside the HTTP API: MCP over Streamable HTTP at /mcp, and
// A2A (agent cards and JSON-RPC). Both take the server's bearer tokens; what they do is mcpserver/'s.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyToken, type TokenRow } from '../api/index.js';
import { A2aEndpoint, McpHttpEndpoint, type AgentHost } from '../mcpserver/index.js';
import { HttpError } from './http.js';
import type { ServerState } from './routes.js';

/** How long a tool call without a task waits for its run before answering with the run's id (ms). */
function waitMs(env: NodeJS.ProcessEnv): number {
  const raw = Number(env['SQUADRON_MCP_WAIT_MS'] ?? '60000');
  return Number.isFinite(raw) && raw >= 0 ? raw : 60_000;
}

export class AgentEndpoints {
  private readonly mcp: McpHttpEndpoint;
  private readonly a2a: A2aEndpoint;

  constructor(
    private readonly state: ServerState,
    private readonly env: NodeJS.ProcessEnv,
    version: string,
  ) {
    this.mcp = new McpHttpEndpoint(version);
    this.a2a = new A2aEndpoint(version);
  }

  /** true when the request was one of these endpoints (answered here). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    const isMcp = path === '/mcp';
    const a2a = this.a2a.matches(path);
    if (!isMcp && !a2a) return false;
    const token = await this.bearer(req, a2a === 'card');
    const host = this.host(token, isMcp ? 'mcp' : 'a2a');
    if (isMcp) await this.mcp.handle(req, res, host, token?.id ?? '');
    else await this.a2a.handle(req, res, host, url, this.origin(req));
    return true;
  }

  async close(): Promise<void> {
    await this.mcp.close();
  }

  private host(token: TokenRow | undefined, via: string): AgentHost {
    const missions = token?.missions;
    return {
      store: this.state.store,
      project: this.state.project,
      runs: this.state.runner,
      who: `${via}:${token?.name ?? 'anonymous'}`,
      ...(missions !== undefined && missions !== null ? { missions } : {}),
      waitMs: waitMs(this.env),
    };
  }

  /** Agent cards are public (A2A discovery); everything else needs a bearer token. */
  private async bearer(req: IncomingMessage, optional: boolean): Promise<TokenRow | undefined> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? await verifyToken(this.state.store, bearer) : undefined;
    if (!token && !optional) throw new HttpError(401, 'unauthorized', bearer ? 'unknown or revoked token' : 'a bearer token is required (squadron token create)');
    return token;
  }

  private origin(req: IncomingMessage): string {
    return `http://${req.headers.host ?? '127.0.0.1'}`;
  }
}
