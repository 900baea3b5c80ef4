// End-to-end: an MCP server changes its tools mid-run (notifications/tools/list_changed, from the
// stdio test server's `grow`, which adds `grown` and removes `add`). The worker holding
// `mcp.lc.all` is sent the new list from its next turn; a declared agent holding named tools loses
// `add` and is not given `grown` (authorization re-applied). The change is recorded, so after
// `kill -9` the resumed run sends the worker exactly the tools it was sent before, although the
// restarted server lists its original tools.

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import type { CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, agentOf, fakeModelBlock, removeProjects, runThenResume, requestsOf, storedEvents, toolNames, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

describe('tools/list_changed', () => {
  let model: FakeModelServer;
  let dir: string;
  let first: CliResult;
  let resumed: CliResult;
  let child: ChildProcess | undefined;
  let killed = false;
  const problems: string[] = [];

  beforeAll(async () => {
    const turns = turnScript({
      'commander of task "change"': [
        callAgent('reader', 'Say you are ready.'),
        callAgent('worker', 'Grow the server.'),
        toolCall('call_agent', { name: 'reader', response: 'Look at your tools again.' }),
        toolCall('call_agent', { name: 'worker', response: 'Once more.' }),
        (req: FakeRequest) => taskComplete(lastToolResult(req)),
      ],
      'worker agent of task "change"': [toolCall('mcp_lc_grow', {}), { text: 'Grown.' }, { text: 'Again.' }],
      [agentOf('reader')]: [
        { text: 'Ready.' },
        () => {
          // The first process dies while the reader's model call after the change is in flight.
          if (!killed) {
            killed = true;
            child?.kill('SIGKILL');
          }
          return { text: 'Still here.' };
        },
      ],
    });
    model = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({
      'mission.hcl': `${fakeModelBlock(model)}
mcp "lc" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
  env     = { MCP_TEST_LIST_CHANGING = "1" }
}
agent "reader" {
  model       = ${ANTHROPIC_MODEL}
  personality = "You read."
  tools       = [mcp.lc.echo, mcp.lc.add]
}
mission "changing" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "change" {
    objective = "Change the server's tools."
    tools     = [mcp.lc.all]
    agents    = [agents.reader]
    discovery = false
  }
}
`,
    });
    ({ first, resumed } = await runThenResume(dir, (c) => (child = c)));
    problems.push(...turns.problems);
  }, 300_000);

  afterAll(async () => {
    await model.close();
  });

  const worker = () => requestsOf(model, workerOf('change'));
  const reader = () => requestsOf(model, agentOf('reader'));

  it('kills the first process mid-run and completes on resume with every scripted turn used', () => {
    expect(killed).toBe(true);
    expect(first.signal).toBe('SIGKILL');
    expect(problems).toEqual([]);
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
  });

  it("sends the worker the server's new tools from the turn after the change", () => {
    const before = toolNames(worker()[0]);
    expect(before).toContain('mcp_lc_add');
    expect(before).not.toContain('mcp_lc_grown');
    const after = toolNames(worker()[1]);
    expect(after).toContain('mcp_lc_grown');
    expect(after).not.toContain('mcp_lc_add');
    expect(after.filter((n) => n !== 'mcp_lc_grown')).toEqual(before.filter((n) => n !== 'mcp_lc_add'));
  });

  it('re-applies authorization: an agent holding named tools loses the removed one and never gains the new one', () => {
    const [first, second] = reader();
    expect(toolNames(first)).toEqual(['mcp_lc_echo', 'mcp_lc_add']);
    expect(toolNames(second)).toEqual(['mcp_lc_echo']);
  });

  it('records the change as an event naming the new list', () => {
    const changes = storedEvents<{ server: string; tools: { name: string }[] }>(dir, 'mcp.tools.changed');
    // `grow` sends two notifications (a tool removed, one added) for one new list: one change, one line.
    expect(changes).toHaveLength(1);
    expect(first.stderr.match(/tools changed \(/g)).toHaveLength(1);
    const last = changes[changes.length - 1]!;
    expect(last.server).toBe('lc');
    expect(last.tools.map((t) => t.name)).toContain('grown');
    expect(last.tools.map((t) => t.name)).not.toContain('add');
  });

  it('resumes with exactly the tools each agent was sent before the crash, though the restarted server lists its original tools', () => {
    const [, beforeCrash, reissued] = reader();
    expect(reissued, 'the resumed run re-issues the interrupted reader turn').toBeDefined();
    expect(reissued!.canonical.tools).toEqual(beforeCrash!.canonical.tools);
    expect(reissued!.canonical.messages).toEqual(beforeCrash!.canonical.messages);
    const [, grown, resumedWorker] = worker();
    expect(resumedWorker, 'the worker is called again after the resume').toBeDefined();
    expect(resumedWorker!.canonical.tools).toEqual(grown!.canonical.tools);
  });
});
