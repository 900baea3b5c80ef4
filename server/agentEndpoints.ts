// The endpoints other agents use, mounted beside the HTTP API: MCP over Streamable HTTP at /mcp, and
// A2A (agent cards and JSON-RPC). Both take the server's bearer tokens; what they do is mcpserver/'s.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyToken, type TokenRow } from '../api/index.js';
import type { A2aEndpoint, AgentHost, McpHttpEndpoint } from '../mcpserver/index.js';
import { HttpError } from './http.js';
import type { ServerState } from './routes.js';

/** How long a tool call without a task waits for its run before answering with the run's id (ms). */
function waitMs(env: NodeJS.ProcessEnv): number {
  const raw = Number(env['SQUADRON_MCP_WAIT_MS'] ?? '60000');
  return Number.isFinite(raw) && raw >= 0 ? raw : 60_000;
}

const A2A_PATH = /^\/(?:\.well-known\/agent-card\.json$|a2a(?:\/|$))/;

export class AgentEndpoints {
  /** Loaded on the first request that needs them: the MCP and A2A SDKs stay out of a server that is never asked. */
  private endpoints: Promise<{ mcp: McpHttpEndpoint; a2a: A2aEndpoint }> | undefined;

  constructor(
    private readonly state: ServerState,
    private readonly env: NodeJS.ProcessEnv,
    private readonly version: string,
  ) {}

  /** true when the request was one of these endpoints (answered here). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    const isMcp = path === '/mcp';
    if (!isMcp && !A2A_PATH.test(path)) return false;
    this.endpoints ??= import('../mcpserver/index.js').then((m) => ({ mcp: new m.McpHttpEndpoint(this.version), a2a: new m.A2aEndpoint(this.version) }));
    const { mcp, a2a } = await this.endpoints;
    const kind = isMcp ? 'mcp' : a2a.matches(path);
    if (kind === undefined) return false;
    const token = await this.bearer(req, kind === 'card', res);
    const host = this.host(token, isMcp ? 'mcp' : 'a2a');
    if (isMcp) await mcp.handle(req, res, host, token?.id ?? '');
    else await a2a.handle(req, res, host, url, this.origin(req));
    return true;
  }

  async close(): Promise<void> {
    if (this.endpoints) await (await this.endpoints).mcp.close();
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
  private async bearer(req: IncomingMessage, optional: boolean, res?: ServerResponse): Promise<TokenRow | undefined> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? await verifyToken(this.state.store, bearer) : undefined;
    if (!token && !optional) res?.setHeader('www-authenticate', 'Bearer');
    if (!token && !optional) throw new HttpError(401, 'unauthorized', bearer ? 'unknown or revoked token' : 'a bearer token is required (squadron token create)');
    return token;
  }

  private origin(req: IncomingMessage): string {
    return `http://${req.headers.host ?? '127.0.0.1'}`;
  }
}
