// End-to-end: an MCP server over HTTP that requires OAuth works with just its url. Before a login,
// validate and run say which command fixes it; `squadron mcp login` does discovery, dynamic client
// registration and PKCE against a local authorization server (the test follows the browser's
// redirect); runs then use the stored tokens and refresh them when they expire; a revoked refresh
// token asks for a login again; tokens are stored encrypted, never in the clear; a wrong url's
// HTML 404 page is one short line.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { fakeModelBlock, LOCAL_HTTP, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../support/mcpHttpServer.js';
import { startOAuthMcpServer, type OAuthMcpTestServer } from '../support/oauthMcpServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 180_000 });

let oauth: OAuthMcpTestServer;
let model: FakeModelServer;
let dir: string;
let home: string;
const env = (): Record<string, string> => ({ SQUADRON_CONFIG_HOME: home });

beforeAll(async () => {
  oauth = await startOAuthMcpServer();
  // Each run: the worker echoes once through the protected server.
  const script = turnScript({
    'commander of task "use"': [callAgent('worker', 'Echo through the secure server.'), (req) => taskComplete(`Worker: ${lastToolResult(req)}`)],
    'worker agent of task "use"': [toolCall('mcp_secure_echo', { text: 'behind oauth' }), (req) => ({ text: lastToolResult(req) })],
  });
  model = await startFakeModelServer({ respond: (req) => script.respond(req) });
  dir = projectUsing('secure', oauth.url);
  home = writeProject({});
});

afterAll(async () => {
  await oauth.close();
  await model.close();
  removeProjects();
});

/** A project whose one task's worker holds the echo tool of the MCP server `name` at `url`. */
function projectUsing(name: string, url: string): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(model)}${LOCAL_HTTP}
mcp "${name}" {
  url = "${url}"
}

mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "use" {
    objective = "Echo through the ${name} server"
    tools     = [mcp.${name}.echo]
  }
}
`,
  });
}

/** `squadron mcp login`, with the test in the browser's place: it follows the printed address. */
async function login(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'login', 'secure', dir, '--timeout', '120'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env() } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const address = new Promise<string>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const m = /^\s+(http:\/\/\S+)$/m.exec(stderr);
      if (m) resolve(m[1]!);
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await Promise.race([address, exited.then(() => '')]);
  if (url !== '') {
    // The authorization server approves at once and redirects to the CLI's loopback callback.
    const approve = await fetch(url, { redirect: 'manual' });
    expect(approve.status).toBe(302);
    const callback = await fetch(approve.headers.get('location')!);
    expect(await callback.text()).toContain('logged in');
  }
  return { code: await exited, stdout, stderr };
}

function credentialFiles(): string[] {
  const folder = join(home, 'mcp-credentials');
  return readdirSync(folder).map((f) => join(folder, f));
}

describe('MCP over HTTP with OAuth', () => {
  it('before a login, status, validate and run name the login command; nothing is registered', async () => {
    const status = await runCli(['mcp', 'status', dir, '--json'], { cwd: dir, env: env() });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).servers).toEqual([{ name: 'secure', transport: 'http', login: 'not_logged_in' }]);
    const text = await runCli(['mcp', 'status', dir], { cwd: dir, env: env() });
    expect([text.code, text.stdout]).toEqual([0, `${'secure'.padEnd(16)} http   not_logged_in\n`]);

    const validate = await runCli(['validate', dir, '--json'], { cwd: dir, env: env() });
    expect(validate.code).toBe(1);
    const diag = (JSON.parse(validate.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics.find((d) => d.code === 'MCP002');
    expect(diag?.message).toContain('needs a login: run squadron mcp login secure');

    // The server's tools are unavailable, with a warning naming the fix.
    const run = await runCli(['run', dir], { cwd: dir, env: env() });
    expect(run.stderr).toContain('warning: tool mcp.secure.echo is unavailable: MCP server "secure" could not be started: MCP server "secure" needs a login: run squadron mcp login secure\n');
    expect(oauth.stats.registrations).toBe(0);
  });

  it('login registers a client, exchanges the code with PKCE and stores the tokens encrypted', async () => {
    const result = await login();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('logged in to MCP server "secure"');
    expect(oauth.stats).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });

    const files = credentialFiles();
    const names = files.map((f) => f.slice(f.lastIndexOf('/') + 1));
    expect(names).toHaveLength(2);
    expect(names).toEqual(expect.arrayContaining(['credentials.key', expect.stringMatching(/^[0-9a-f]{32}\.json\.enc$/)]));
    for (const file of files) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, 'utf8');
      for (const token of oauth.issuedTokens()) expect(text).not.toContain(token);
    }
    const status = await runCli(['mcp', 'status', dir, '--json'], { cwd: dir, env: env() });
    expect(JSON.parse(status.stdout).servers[0]).toMatchObject({ name: 'secure', login: 'logged_in' });
    // A malformed key the user set is their mistake: one line, exit 2, the stored login untouched.
    const badKey = await runCli(['mcp', 'status', dir], { cwd: dir, env: { ...env(), SQUADRON_CREDENTIALS_KEY: 'not-hex' } });
    expect([badKey.code, badKey.stderr]).toEqual([2, 'error: SQUADRON_CREDENTIALS_KEY must be 64 hex digits (32 bytes), e.g. from: openssl rand -hex 32\n']);
  });

  it('a run uses the stored tokens; an expired access token is refreshed without asking', async () => {
    const first = await runCli(['run', dir], { cwd: dir, env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('behind oauth');
    const served = oauth.stats.mcpRequests;
    expect(served).toBeGreaterThan(0);

    oauth.expireAccessTokens();
    const second = await runCli(['run', dir], { cwd: dir, env: env() });
    expect(second.code, second.stderr).toBe(0);
    expect(oauth.stats.refreshes).toBe(1);
    expect(oauth.stats.mcpRequests).toBeGreaterThan(served);
    // Nothing the server issued reached the project's files (database, logs) in the clear.
    const projectFiles = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
    for (const file of projectFiles) {
      const bytes = readFileSync(file).toString('latin1');
      for (const token of oauth.issuedTokens()) expect(bytes.includes(token), `${file} holds a token`).toBe(false);
    }
  });

  it('a revoked refresh token asks for a login again; logout forgets the tokens', async () => {
    oauth.expireAccessTokens();
    oauth.revokeRefreshTokens();
    const run = await runCli(['run', dir], { cwd: dir, env: env() });
    expect(run.stderr).toContain('needs a login: run squadron mcp login secure\n');
    expect(oauth.stats.refreshes).toBe(1);

    const logout = await runCli(['mcp', 'logout', 'secure', dir], { cwd: dir, env: env() });
    expect([logout.code, logout.stdout]).toEqual([0, 'logged out of MCP server "secure"\n']);
    const status = await runCli(['mcp', 'status', dir, '--json'], { cwd: dir, env: env() });
    expect(JSON.parse(status.stdout).servers[0].login).toBe('not_logged_in');
    const again = await runCli(['mcp', 'logout', 'secure', dir], { cwd: dir, env: env() });
    expect([again.code, again.stdout]).toEqual([0, 'MCP server "secure" had no stored login\n']);
  });

  it('mistakes are one line each: an unknown server, a stdio server, a wrong url with an HTML 404 page', async () => {
    const unknown = await runCli(['mcp', 'login', 'nope', dir], { cwd: dir, env: env() });
    expect([unknown.code, unknown.stderr]).toEqual([2, 'error: no mcp server "nope" in the config (servers: secure)\n']);
    const local = writeProject({ 'main.hcl': `mcp "local" {\n  command = "${process.execPath}"\n}\n` });
    const stdio = await runCli(['mcp', 'login', 'local', local], { cwd: local, env: env() });
    expect([stdio.code, stdio.stderr.trim().split('\n').at(-1)]).toEqual([2, 'error: MCP server "local" runs as a local command (stdio): only servers reached by url log in']);

    let html: McpHttpTestServer | undefined;
    try {
      html = await startMcpHttpServer({
        handle: (_req, res, url) => {
          if (url.pathname !== '/wrong') return false;
          res.writeHead(404, { 'content-type': 'text/html' });
          res.end(`<!DOCTYPE html><html><head><title>404</title><style>body{color:red}</style></head><body><h1>Not Found</h1><p>The page you asked for is not here.</p>${'<div>filler</div>'.repeat(200)}</body></html>`);
          return true;
        },
      });
      const wrong = projectUsing('typo', new URL('/wrong', html.url).href);
      const result = await runCli(['validate', wrong, '--json'], { cwd: wrong, env: env() });
      const diag = (JSON.parse(result.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics.find((d) => d.code === 'MCP002')!;
      expect(diag.message).toContain('HTTP 404: 404 Not Found The page you asked for is not here.');
      expect(diag.message).toContain('(is the url right?)');
      expect(diag.message).not.toContain('<');
      expect(diag.message.length).toBeLessThan(400);
    } finally {
      await html?.close();
    }
  });
});
