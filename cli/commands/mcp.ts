// `squadron mcp login|logout|status`: OAuth for MCP servers reached over HTTP (api/mcpLogin.ts).
// login prints the address to open in a browser and waits for it to come back; the tokens are stored
// encrypted in the user's Squadron folder (never in the project or the database) and runs refresh them.

import type { Command } from 'commander';
import { mcpLogin, mcpLoginStatus, mcpLogout } from '../../api/mcpLogin.js';
import { CliError, collect, parseKeyValues, shownPath, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { loadProject, type LoadedProject } from '../project.js';
import { registerMcpServe } from './mcpServe.js';

interface ProjectFlags {
  var: string[];
}

export function register(program: Command, io: CliIo): void {
  const mcp = program.command('mcp').description('Serve the missions as MCP tools (mcp serve); log in to MCP servers that use OAuth, and see which are logged in');
  registerMcpServe(mcp, io);
  const project = (path: string, flags: ProjectFlags): Promise<LoadedProject> => loadProject(io, path, parseKeyValues(flags.var, '--var'), { unsetVariables: 'unknown' });

  mcp
    .command('login')
    .description('Log in to an MCP server over HTTP that asks for OAuth: prints an address to open in a browser')
    .argument('<server>', 'the name of the mcp block')
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--timeout <seconds>', 'how long to wait for the browser', '300')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(async (name: string, path: string, flags: ProjectFlags & { timeout: string }) => {
      const seconds = Number(flags.timeout);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`--timeout must be a positive number of seconds, got "${flags.timeout}"`, 'usage');
      const done = await mcpLogin(await project(path, flags), name, {
        timeoutMs: seconds * 1000,
        env: io.env,
        onAuthorizationUrl: (url) => {
          io.stderr.write(`Open this address in a browser to log in to MCP server "${name}":\n\n  ${url.href}\n\nWaiting for the browser (up to ${seconds} s)…\n`);
        },
      });
      io.stdout.write(`logged in to MCP server "${done.server}"; its tokens are stored encrypted in ${shownPath(io.cwd, done.credentialsDir)}\n`);
    });

  mcp
    .command('logout')
    .description("Forget an MCP server's stored OAuth tokens")
    .argument('<server>', 'the name of the mcp block')
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(async (name: string, path: string, flags: ProjectFlags) => {
      const { server, removed } = await mcpLogout(await project(path, flags), name, io.env);
      io.stdout.write(removed ? `logged out of MCP server "${server}"\n` : `MCP server "${server}" had no stored login\n`);
    });

  mcp
    .command('status')
    .description("Each MCP server over HTTP and whether Squadron holds a login for it")
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--json', JSON_FLAG_HELP)
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(async (path: string, flags: ProjectFlags & { json?: boolean }) => {
      const status = await mcpLoginStatus(await project(path, flags), io.env);
      if (flags.json) {
        const servers = status.servers.map((s) => ({ name: s.name, transport: s.transport, login: s.login, ...(s.expiresAt ? { expires_at: s.expiresAt } : {}) }));
        writeJson(io, { credentials_dir: status.credentialsDir, servers });
        return;
      }
      if (status.servers.length === 0) io.stdout.write('no mcp servers in the config\n');
      for (const s of status.servers) io.stdout.write(`${s.name.padEnd(16)} ${s.transport.padEnd(6)} ${s.login}${s.expiresAt ? ` (access token expires ${s.expiresAt})` : ''}\n`);
    });
}
