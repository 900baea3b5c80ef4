// An MCP server over Streamable HTTP that requires OAuth, with its own small authorization server on
// the same port: protected resource metadata (RFC 9728), authorization server metadata (RFC 8414),
// dynamic client registration (RFC 7591), an authorization endpoint that approves at once (the
// "person" is the test, following the redirect), and a token endpoint that checks PKCE (S256) and
// issues refresh tokens. The test can expire access tokens or revoke refresh tokens to drive the
// client's refresh and re-login paths.

import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startMcpHttpServer, type McpHttpTestServer } from './mcpHttpServer.js';

export interface OAuthMcpTestServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  stats: { registrations: number; authorizations: number; codeExchanges: number; refreshes: number; rejected: number; mcpRequests: number };
  /** Every access token issued so far stops working (the client must refresh). */
  expireAccessTokens(): void;
  /** Every refresh token stops working too (the client must log in again). */
  revokeRefreshTokens(): void;
  /** Every access token the server accepted, to check none reached a file or log in the clear. */
  issuedTokens(): string[];
  close(): Promise<void>;
}

interface Client {
  redirectUris: string[];
}

export async function startOAuthMcpServer(): Promise<OAuthMcpTestServer> {
  const clients = new Map<string, Client>();
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const access = new Set<string>();
  const refresh = new Map<string, string>();
  const issued: string[] = [];
  const stats = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, rejected: 0, mcpRequests: 0 };
  let origin = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
    return true;
  };
  const issue = (clientId: string): Record<string, unknown> => {
    const accessToken = `at_${randomUUID()}`;
    const refreshToken = `rt_${randomUUID()}`;
    access.add(accessToken);
    refresh.set(refreshToken, clientId);
    issued.push(accessToken, refreshToken);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken, scope: 'mcp' };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    switch (url.pathname) {
      case '/.well-known/oauth-protected-resource/mcp':
      case '/.well-known/oauth-protected-resource':
        return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin], scopes_supported: ['mcp'] });
      case '/.well-known/oauth-authorization-server':
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      case '/register': {
        const body = JSON.parse(await readBody(req)) as { redirect_uris?: string[] };
        const clientId = `client_${randomUUID()}`;
        clients.set(clientId, { redirectUris: body.redirect_uris ?? [] });
        stats.registrations++;
        return json(res, 201, { ...body, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: 'none' });
      }
      case '/authorize': {
        const q = url.searchParams;
        const client = clients.get(q.get('client_id') ?? '');
        const redirectUri = q.get('redirect_uri') ?? '';
        if (client === undefined || !client.redirectUris.includes(redirectUri)) return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
        if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
        const code = `code_${randomUUID()}`;
        codes.set(code, { clientId: q.get('client_id')!, challenge: q.get('code_challenge')!, redirectUri });
        stats.authorizations++;
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
        res.writeHead(302, { location: back.href });
        res.end();
        return true;
      }
      case '/token': {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('grant_type') === 'authorization_code') {
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (grant === undefined || grant.challenge !== challenge || grant.clientId !== form.get('client_id')) return json(res, 400, { error: 'invalid_grant' });
          stats.codeExchanges++;
          return json(res, 200, issue(grant.clientId));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const clientId = refresh.get(form.get('refresh_token') ?? '');
          if (clientId === undefined) return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
          refresh.delete(form.get('refresh_token')!);
          stats.refreshes++;
          return json(res, 200, issue(clientId));
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      case '/mcp': {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (token === undefined || !access.has(token)) {
          stats.rejected++;
          return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
        }
        stats.mcpRequests++;
        return false;
      }
      default:
        return false;
    }
  };

  const mcp: McpHttpTestServer = await startMcpHttpServer({ handle });
  origin = new URL(mcp.url).origin;
  return {
    url: mcp.url,
    stats,
    expireAccessTokens: () => access.clear(),
    revokeRefreshTokens: () => refresh.clear(),
    issuedTokens: () => [...issued],
    close: () => mcp.close(),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
