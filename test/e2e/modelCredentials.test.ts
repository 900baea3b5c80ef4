// End-to-end: the run's start-up check of model credentials covers the model an MCP server's
// sampling requests are answered with (`sampling_model`). A block without api_key, with
// ANTHROPIC_API_KEY unset, refuses the run before any model call or server start, naming the block
// and its use; with the key in the environment the same run goes ahead.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { runCli, type CliResult } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

describe('model credentials at start-up', () => {
  let model: FakeModelServer;
  let refused: CliResult;
  let allowed: CliResult;
  let requestsWhenRefused = -1;
  const problems: string[] = [];

  beforeAll(async () => {
    const turns = turnScript({ 'commander of task "t"': [taskComplete('Nothing to do.')] });
    model = await startFakeModelServer({ respond: turns.respond });
    const dir = writeProject({
      'mission.hcl': `${fakeModelBlock(model)}
model "keyless" {
  provider = "anthropic"
  base_url = "${model.anthropicBaseURL}"
}
mcp "s" {
  command        = "${process.execPath}"
  args           = ["${MCP_STDIO_SERVER_PATH}"]
  env            = { MCP_TEST_SAMPLING = "1" }
  sampling       = true
  sampling_model = models.keyless.claude_haiku_4_5
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    objective = "Summarise."
    tools     = [mcp.s.summarize]
  }
}
`,
    });
    const noKey = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined };
    refused = await runCli(['run', dir], { cwd: dir, env: noKey, timeoutMs: 120_000 });
    requestsWhenRefused = model.requests.length;
    allowed = await runCli(['run', dir], { cwd: dir, env: { ...noKey, ANTHROPIC_API_KEY: 'from-the-environment' }, timeoutMs: 120_000 });
    problems.push(...turns.problems);
  }, 300_000);

  afterAll(async () => {
    await model.close();
  });

  it('refuses the run with one line naming the keyless sampling_model, exit 2, before any model call', () => {
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('model "keyless" (used by the sampling_model of mcp "s") has no api_key and ANTHROPIC_API_KEY is not set');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(requestsWhenRefused).toBe(0);
  });

  it('lets the same run go ahead when the environment holds the key', () => {
    expect(allowed.code, `${allowed.stdout}\n${allowed.stderr}`).toBe(0);
    expect(problems).toEqual([]);
  });
});
