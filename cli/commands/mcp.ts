// `squadron mcp login|logout|status`: OAuth for MCP servers reached over HTTP. login prints the
// address to open in a browser and waits for it to come back; the tokens are stored encrypted in the
// user's Squadron folder (never in the project or the database) and runs refresh them.

import type { Command } from 'commander';
import type { McpServer } from '../../config/graph.js';
import { CredentialKeyError, CredentialStore } from '../../runtime/tools/mcp/credentialStore.js';
import { loginToMcpServer } from '../../runtime/tools/mcp/login.js';
import { usesOwnAuthorization } from '../../runtime/tools/mcp/oauthProvider.js';
import { CliError, collect, parseKeyValues, shownPath, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { loadProject } from '../project.js';
import { registerMcpServe } from './mcpServe.js';

interface ProjectFlags {
  var: string[];
}

/** A credential key the user set up wrong (SQUADRON_CREDENTIALS_KEY, the key file) is their mistake: one usage line. */
function keyErrorsAsUsage<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      await action(...args);
    } catch (err) {
      if (err instanceof CredentialKeyError) throw new CliError(err.message, 'usage');
      throw err;
    }
  };
}

export function register(program: Command, io: CliIo): void {
  const mcp = program.command('mcp').description('Serve the missions as MCP tools (mcp serve); log in to MCP servers that use OAuth, and see which are logged in');
  registerMcpServe(mcp, io);

  mcp
    .command('login')
    .description('Log in to an MCP server over HTTP that asks for OAuth: prints an address to open in a browser')
    .argument('<server>', 'the name of the mcp block')
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--timeout <seconds>', 'how long to wait for the browser', '300')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(keyErrorsAsUsage(async (name: string, path: string, flags: ProjectFlags & { timeout: string }) => {
      const seconds = Number(flags.timeout);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`--timeout must be a positive number of seconds, got "${flags.timeout}"`, 'usage');
      const server = httpServer(await serverNamed(io, path, flags, name));
      const store = new CredentialStore(undefined, io.env);
      const result = await loginToMcpServer({
        server: { name: server.name, url: server.transport.url },
        store,
        timeoutMs: seconds * 1000,
        onAuthorizationUrl: (url) => {
          io.stderr.write(`Open this address in a browser to log in to MCP server "${server.name}":\n\n  ${url.href}\n\nWaiting for the browser (up to ${seconds} s)…\n`);
        },
      });
      if (!result.ok) throw new CliError(`login to MCP server "${server.name}" failed: ${result.reason}`, 'refused');
      io.stdout.write(`logged in to MCP server "${server.name}"; its tokens are stored encrypted in ${shownPath(io.cwd, store.dir)}\n`);
    }));

  mcp
    .command('logout')
    .description("Forget an MCP server's stored OAuth tokens")
    .argument('<server>', 'the name of the mcp block')
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(keyErrorsAsUsage(async (name: string, path: string, flags: ProjectFlags) => {
      const server = httpServer(await serverNamed(io, path, flags, name));
      const removed = new CredentialStore(undefined, io.env).remove(server.transport.url);
      io.stdout.write(removed ? `logged out of MCP server "${server.name}"\n` : `MCP server "${server.name}" had no stored login\n`);
    }));

  mcp
    .command('status')
    .description("Each MCP server over HTTP and whether Squadron holds a login for it")
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--json', JSON_FLAG_HELP)
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(keyErrorsAsUsage(async (path: string, flags: ProjectFlags & { json?: boolean }) => {
      const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'), { unsetVariables: 'unknown' });
      const store = new CredentialStore(undefined, io.env);
      const servers = project.graph.mcpServers.map((s) => ({ name: s.name, ...loginStatus(s, store) }));
      if (flags.json) {
        writeJson(io, { credentials_dir: store.dir, servers });
        return;
      }
      if (servers.length === 0) io.stdout.write('no mcp servers in the config\n');
      for (const s of servers) io.stdout.write(`${s.name.padEnd(16)} ${s.transport.padEnd(6)} ${s.login}${s.expires_at ? ` (access token expires ${s.expires_at})` : ''}\n`);
    }));
}

type Login = 'logged_in' | 'not_logged_in' | 'own_header' | 'not_applicable';

function loginStatus(server: McpServer, store: CredentialStore): { transport: 'stdio' | 'http'; login: Login; expires_at?: string } {
  if (server.transport.kind === 'stdio') return { transport: 'stdio', login: 'not_applicable' };
  if (usesOwnAuthorization(server.transport.headers)) return { transport: 'http', login: 'own_header' };
  const creds = store.read(server.transport.url);
  if (creds?.tokens === undefined) return { transport: 'http', login: 'not_logged_in' };
  const expiresIn = creds.tokens.expires_in;
  const expires = expiresIn === undefined ? undefined : new Date(Date.parse(creds.savedAt) + expiresIn * 1000).toISOString();
  return { transport: 'http', login: 'logged_in', ...(expires ? { expires_at: expires } : {}) };
}

async function serverNamed(io: CliIo, path: string, flags: ProjectFlags, name: string): Promise<McpServer> {
  const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'), { unsetVariables: 'unknown' });
  const server = project.graph.mcpServers.find((s) => s.name === name);
  if (server !== undefined) return server;
  const names = project.graph.mcpServers.map((s) => s.name);
  throw new CliError(`no mcp server "${name}" in the config${names.length > 0 ? ` (servers: ${names.join(', ')})` : ''}`, 'not_found');
}

function httpServer(server: McpServer): McpServer & { transport: { kind: 'http'; url: string } } {
  if (server.transport.kind !== 'http') throw new CliError(`MCP server "${server.name}" runs as a local command (stdio): only servers reached by url log in`, 'usage');
  return server as McpServer & { transport: { kind: 'http'; url: string } };
}
