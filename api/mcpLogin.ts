// OAuth for MCP servers reached over HTTP (`squadron mcp login|logout|status`): a login hands the
// caller an address to open in a browser and waits for it to come back; the tokens are stored
// encrypted in the user's Squadron folder (never in the project or the database) and runs refresh
// them. A credential key set up wrong (SQUADRON_CREDENTIALS_KEY, the key file) is a `usage` error.

import type { McpServer } from '../config/graph.js';
import { CredentialKeyError, CredentialStore } from '../runtime/tools/mcp/credentialStore.js';
import { loginToMcpServer } from '../runtime/tools/mcp/login.js';
import { usesOwnAuthorization } from '../runtime/tools/mcp/oauthProvider.js';
import { SquadronError } from './errors.js';
import type { LoadedProject } from './project.js';

export type McpLogin = 'logged_in' | 'not_logged_in' | 'own_header' | 'not_applicable';

export interface McpLoginStatus {
  name: string;
  transport: 'stdio' | 'http';
  login: McpLogin;
  /** When the stored access token expires (ISO 8601), when the server said. */
  expiresAt?: string;
}

export interface LoginRequest {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** The address the person opens in a browser to log in. */
  onAuthorizationUrl: (url: URL) => void;
}

/** Logs in to the project's MCP server `name`; resolves with the folder the tokens are stored in. */
export async function mcpLogin(project: LoadedProject, name: string, req: LoginRequest): Promise<{ server: string; credentialsDir: string }> {
  return keyErrorsAsUsage(async () => {
    const server = httpServer(serverNamed(project, name));
    const store = new CredentialStore(undefined, req.env ?? process.env);
    const result = await loginToMcpServer({ server: { name: server.name, url: server.transport.url }, store, timeoutMs: req.timeoutMs, onAuthorizationUrl: req.onAuthorizationUrl });
    if (!result.ok) throw new SquadronError('refused', `login to MCP server "${server.name}" failed: ${result.reason}`);
    return { server: server.name, credentialsDir: store.dir };
  });
}

/** Forgets the stored tokens of the project's MCP server `name`; whether there were any. */
export async function mcpLogout(project: LoadedProject, name: string, env: NodeJS.ProcessEnv = process.env): Promise<{ server: string; removed: boolean }> {
  return keyErrorsAsUsage(async () => {
    const server = httpServer(serverNamed(project, name));
    return { server: server.name, removed: new CredentialStore(undefined, env).remove(server.transport.url) };
  });
}

/** Each MCP server of the project and whether a login is held for it. */
export async function mcpLoginStatus(project: LoadedProject, env: NodeJS.ProcessEnv = process.env): Promise<{ credentialsDir: string; servers: McpLoginStatus[] }> {
  return keyErrorsAsUsage(async () => {
    const store = new CredentialStore(undefined, env);
    return { credentialsDir: store.dir, servers: project.graph.mcpServers.map((s) => ({ name: s.name, ...loginStatus(s, store) })) };
  });
}

async function keyErrorsAsUsage<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof CredentialKeyError) throw new SquadronError('usage', err.message);
    throw err;
  }
}

function loginStatus(server: McpServer, store: CredentialStore): Omit<McpLoginStatus, 'name'> {
  if (server.transport.kind === 'stdio') return { transport: 'stdio', login: 'not_applicable' };
  if (usesOwnAuthorization(server.transport.headers)) return { transport: 'http', login: 'own_header' };
  const creds = store.read(server.transport.url);
  if (creds?.tokens === undefined) return { transport: 'http', login: 'not_logged_in' };
  const expiresIn = creds.tokens.expires_in;
  const expires = expiresIn === undefined ? undefined : new Date(Date.parse(creds.savedAt) + expiresIn * 1000).toISOString();
  return { transport: 'http', login: 'logged_in', ...(expires ? { expiresAt: expires } : {}) };
}

function serverNamed(project: LoadedProject, name: string): McpServer {
  const server = project.graph.mcpServers.find((s) => s.name === name);
  if (server !== undefined) return server;
  const names = project.graph.mcpServers.map((s) => s.name);
  throw new SquadronError('not_found', `no mcp server "${name}" in the config${names.length > 0 ? ` (servers: ${names.join(', ')})` : ''}`);
}

function httpServer(server: McpServer): McpServer & { transport: { kind: 'http'; url: string } } {
  if (server.transport.kind !== 'http') throw new SquadronError('usage', `MCP server "${server.name}" runs as a local command (stdio): only servers reached by url log in`);
  return server as McpServer & { transport: { kind: 'http'; url: string } };
}
