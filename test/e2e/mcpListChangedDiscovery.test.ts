// End-to-end: a worker that discovers its tools (discovery = true) holds mcp.lc.all when the server
// changes its tools mid-run (`grow` adds `grown`, removes `add`). search_tools then finds the new tool
// and no longer the removed one. After kill -9, the resumed run searches the recorded list: it still
// finds `grown`, although the restarted server lists its original tools. `grow` also adds a prompt
// (notifications/prompts/list_changed): prompt skills are not refreshed, and a warning says so, once.

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import type { CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, removeProjects, runThenResume, requestsOf, storedEvents, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const searchNew = toolCall('search_tools', { query: 'a tool that appeared mid-run' });
const searchAdd = toolCall('search_tools', { query: 'add two numbers' });

describe('tools/list_changed under progressive discovery', () => {
  let model: FakeModelServer;
  let dir: string;
  let first: CliResult;
  let resumed: CliResult;
  let child: ChildProcess | undefined;
  let killed = false;
  const problems: string[] = [];

  beforeAll(async () => {
    const turns = turnScript({
      'commander of task "find"': [callAgent('worker', 'Grow the server, then look for tools.'), (req: FakeRequest) => taskComplete(lastToolResult(req))],
      'worker agent of task "find"': [
        searchAdd,
        toolCall('mcp_lc_grow', {}),
        searchNew,
        searchAdd,
        () => {
          // The first process dies while this turn is in flight; the resumed run re-issues it.
          if (!killed) {
            killed = true;
            child?.kill('SIGKILL');
          }
          return searchNew;
        },
        { text: 'Done.' },
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
mission "discovering" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "find" {
    objective = "Find the server's tools."
    tools     = [mcp.lc.all]
    discovery = true
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

  /** What search_tools answered before the worker's n-th request (0-based). */
  const searchResult = (n: number): string => {
    const request = requestsOf(model, workerOf('find'))[n];
    expect(request, `worker request ${n}`).toBeDefined();
    return lastToolResult(request!);
  };

  it('kills the first process mid-run and completes on resume with every scripted turn used', () => {
    expect(killed).toBe(true);
    expect(first.signal).toBe('SIGKILL');
    expect(problems).toEqual([]);
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
  });

  it('finds the removed tool before the change, and the new one not yet', () => {
    expect(searchResult(1)).toContain('mcp_lc_add');
    expect(searchResult(1)).not.toContain('mcp_lc_grown');
  });

  it('finds the new tool after the change', () => {
    expect(searchResult(3)).toContain('mcp_lc_grown');
  });

  it('no longer finds the removed tool after the change', () => {
    expect(searchResult(4)).not.toContain('mcp_lc_add');
  });

  it('searches the recorded list after resume: the new tool is still found though the restarted server lacks it', () => {
    // Requests: 0–4 before the crash (4 was in flight), 5 its re-issue, 6 after the search it asked for.
    expect(requestsOf(model, workerOf('find')).length).toBe(7);
    expect(searchResult(6)).toContain('mcp_lc_grown');
    expect(searchResult(6)).not.toContain('mcp_lc_add');
  });

  it("warns once that the server's prompts changed and are not refreshed for agents already working", () => {
    const warnings = storedEvents<{ message: string }>(dir, 'warning').filter((w) => w.message.includes('changed its prompts'));
    expect(warnings.map((w) => w.message)).toEqual([
      'mcp server "lc" changed its prompts: agents already working keep the prompt skills (mcp.lc.prompts) they were given, so they are not offered a new prompt and loading a removed one fails; agents started from now on get the server\'s current prompts',
    ]);
    expect(first.stdout + first.stderr).toContain('warning: mcp server "lc" changed its prompts');
  });
});
