// Remote MCP servers are under the host policy: a server on this machine (loopback), a private or
// link-local address is not contacted unless allowed_hosts lists it; listed, it works as before.
// The same holds for the commands that only list a server's tools: validate, tools and plan.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { fakeModelBlock, LOCAL_HTTP, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../support/mcpHttpServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

const closers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closers) await c.close();
  removeProjects();
});

async function world(): Promise<{ model: FakeModelServer; mcp: McpHttpTestServer }> {
  const script = turnScript({
    'commander of task "use"': [callAgent('worker', 'Echo hello.'), (req) => taskComplete(`echo said: ${lastToolResult(req) ?? 'nothing'}`)],
    'worker agent of task "use"': [toolCall('mcp_remote_echo', { text: 'hello from the remote server' }), (req) => ({ text: lastToolResult(req) ?? 'no result' })],
  });
  const model = await startFakeModelServer({ respond: script.respond });
  const mcp = await startMcpHttpServer();
  closers.push(model, mcp);
  return { model, mcp };
}

function project(model: FakeModelServer, url: string, allow: string): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(model)}${allow}
mcp "remote" {
  url = "${url}"
}

mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "use" {
    objective = "Echo hello."
    tools     = [mcp.remote.echo]
  }
}
`,
  });
}

describe('remote MCP servers and allowed_hosts', () => {
  it('refuses a server on 127.0.0.1 without allowed_hosts: nothing reaches it, the reason names allowed_hosts', async () => {
    const { model, mcp } = await world();
    const dir = project(model, mcp.url, '');
    const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 200_000 });
    expect(`${run.stdout}\n${run.stderr}`).toMatch(/127\.0\.0\.1 is a loopback address \(this machine\); such hosts are refused unless allowed_hosts lists them/);
    expect(mcp.stats.initializations).toBe(0);
  }, 300_000);

  it('reaches it when allowed_hosts lists it', async () => {
    const { model, mcp } = await world();
    const dir = project(model, mcp.url, LOCAL_HTTP);
    const run = await runCli(['run', dir, '--json'], { cwd: dir, timeoutMs: 200_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello from the remote server');
    expect(mcp.stats.initializations).toBeGreaterThan(0);
  }, 300_000);

  it('validate, tools and plan list a server on 127.0.0.1 only when allowed_hosts lists it', async () => {
    const { model, mcp } = await world();
    const refused = project(model, mcp.url, '');
    const validate = await runCli(['validate', refused], { cwd: refused, timeoutMs: 200_000 });
    expect(validate.code, validate.stdout + validate.stderr).toBe(1);
    expect(validate.stderr).toMatch(/main\.hcl:\d+:\d+: error\[MCP002\]: mcp server "remote" could not be contacted to list its tools: .*127\.0\.0\.1 is a loopback address \(this machine\); such hosts are refused unless allowed_hosts lists them/);
    expect(validate.stderr).toContain('list its host in the project\'s allowed_hosts');
    for (const command of ['tools', 'plan']) {
      const listed = await runCli([command, refused], { cwd: refused, timeoutMs: 200_000 });
      expect(`${listed.stdout}\n${listed.stderr}`, command).toMatch(/such hosts are refused unless allowed_hosts lists them/);
    }
    expect(mcp.stats.initializations).toBe(0);

    const allowed = project(model, mcp.url, LOCAL_HTTP);
    const ok = await runCli(['validate', allowed], { cwd: allowed, timeoutMs: 200_000 });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(mcp.stats.initializations).toBe(1);
    const tools = await runCli(['tools', allowed], { cwd: allowed, timeoutMs: 200_000 });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('mcp_remote_echo');
  }, 300_000);
});
