// Remote MCP servers are under the host policy: a server on this machine (loopback), a private or
// link-local address is not contacted unless allowed_hosts lists it; listed, it works as before.

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
});
