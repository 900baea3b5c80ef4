// End-to-end: the prompts of the everything reference server (a devDependency, run over stdio by
// the CLI) as skills. `skills = [mcp.every.prompts]` lists each prompt in the worker's skill
// catalog with its arguments, `plan` shows them with their provenance, and load_skill gets the
// prompt from the server with the model's arguments.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { ANTHROPIC_MODEL, fakeModelBlock, latestToolResults, removeProjects, requestsOf, resultText, toolNames, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const SKILL = 'mcp.every.prompts.args-prompt';

function config(model: FakeModelServer, skills: string): string {
  return `${fakeModelBlock(model)}
mcp "every" {
  command = "${process.execPath}"
  args    = ["${EVERYTHING}"]
}
mission "prompts" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "weather" {
    objective = "Ask about the weather."
    tools     = [mcp.every.echo]
    skills    = ${skills}
    discovery = false
  }
}
`;
}

describe("an MCP server's prompts as skills", () => {
  let model: FakeModelServer;
  let dir: string;
  let code: number | null;
  let stderr: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const turns = turnScript({
      'commander of task "weather"': [callAgent('worker', 'Ask about the weather.'), (req: FakeRequest) => taskComplete(lastToolResult(req))],
      'worker agent of task "weather"': [
        toolCall('load_skill', { name: SKILL }),
        toolCall('load_skill', { name: SKILL, arguments: { city: 'Oslo', state: 'Viken' } }),
        { text: 'Weather asked.' },
      ],
    });
    model = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({ 'mission.hcl': config(model, '[mcp.every.prompts]') });
    const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
    problems.push(...turns.problems);
    code = run.code;
    stderr = run.stderr;
  }, 180_000);

  afterAll(async () => {
    await model.close();
  });

  const worker = () => requestsOf(model, workerOf('weather'));

  it('completes the run with every scripted turn used', () => {
    expect(problems).toEqual([]);
    expect(code, stderr).toBe(0);
  });

  it("lists every prompt of the server in the worker's skill catalog, with its arguments", () => {
    const system = worker()[0]!.canonical.system;
    expect(system).toContain('## Skills');
    expect(system).toContain('`mcp.every.prompts.simple-prompt`');
    expect(system).toContain('`mcp.every.prompts.args-prompt`: A prompt with two arguments, one required and one optional (arguments: city, required — Name of the city; state)');
    const loadSkill = worker()[0]!.canonical.tools.find((t) => t.name === 'load_skill');
    expect(Object.keys((loadSkill?.inputSchema as { properties: object }).properties)).toEqual(['name', 'arguments']);
    expect(toolNames(worker()[0])).toContain('mcp_every_echo');
  });

  it('refuses a load without a required argument, naming it', () => {
    const refused = latestToolResults(worker()[1]!)[0]!;
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('needs the arguments city');
  });

  it("gets the prompt with the model's arguments and gives its messages to the model", () => {
    const loaded = latestToolResults(worker()[2]!)[0]!;
    expect(loaded.isError, resultText(loaded)).toBe(false);
    expect(resultText(loaded)).toContain(`Skill \`${SKILL}\` is loaded`);
    expect(resultText(loaded)).toContain("[user]What's weather in Oslo, Viken?");
  });

  it('plan shows the prompts as skills with the provenance of the reference that brought them', async () => {
    const plan = await runCli(['plan', dir, '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(plan.code, plan.stderr).toBe(0);
    const skills = JSON.parse(plan.stdout).tasks[0].agents[0].skills as { name: string; via: string }[];
    expect(skills).toContainEqual({ name: SKILL, via: 'task' });
    expect(skills.map((s) => s.name)).toEqual(expect.arrayContaining(['mcp.every.prompts.simple-prompt', 'mcp.every.prompts.resource-prompt']));
    expect(skills.every((s) => s.name.startsWith('mcp.every.prompts.'))).toBe(true);
  });

  it('plan names an unknown prompt instead of guessing', async () => {
    const other = writeProject({ 'mission.hcl': config(model, '[mcp.every.prompts.nope]') });
    const plan = await runCli(['plan', other], { cwd: other, timeoutMs: 60_000 });
    expect(`${plan.stdout}${plan.stderr}`).toContain('MCP server "every" has no prompt "nope"');
  });

  it('plan warns when the server offers no prompts at all', async () => {
    const hcl = config(model, '[mcp.every.prompts]').replace(EVERYTHING, MCP_STDIO_SERVER_PATH);
    const other = writeProject({ 'mission.hcl': hcl });
    const plan = await runCli(['plan', other], { cwd: other, timeoutMs: 60_000 });
    expect(`${plan.stdout}${plan.stderr}`).toContain('skill mcp.every.prompts is unavailable: MCP server "every" offers no prompts');
  });
});

describe('validate checks prompt names when it contacts the servers', () => {
  const project = (skills: string, env = ''): string =>
    writeProject({
      'mission.hcl': `model "fake" {
  provider = "anthropic"
  api_key  = "k"
}
mcp "p" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
  ${env}
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    objective = "Greet."
    tools     = [mcp.p.echo]
    skills    = ${skills}
  }
}
`,
    });
  const withPrompts = 'env = { MCP_TEST_LIST_CHANGING = "1" }';

  it('reports an unknown prompt at its reference (MCP004) with the nearest name, and accepts a known one', async () => {
    const dir = project('[mcp.p.prompts.greeting, mcp.p.prompts.greetng]', withPrompts);
    const result = await runCli(['validate', dir], { cwd: dir, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/mission\.hcl:\d+:\d+: error\[MCP004\]: mcp server "p" has no prompt "greetng"/);
    expect(result.stderr).toContain('mcp.p.prompts.greeting');
    expect(result.stderr.match(/MCP004/g)).toHaveLength(1);
  });

  it('says the server offers no prompts when it has none', async () => {
    const dir = project('[mcp.p.prompts.greeting]');
    const result = await runCli(['validate', dir], { cwd: dir, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('error[MCP004]: mcp server "p" has no prompt "greeting"');
    expect(result.stderr).toContain('the server offers no prompts');
  });

  it('leaves prompt names unchecked with --offline (prompt lists are not cached)', async () => {
    const dir = project('[mcp.p.prompts.greetng]', withPrompts);
    expect((await runCli(['validate', dir], { cwd: dir, timeoutMs: 60_000 })).code).toBe(1);
    const offline = await runCli(['validate', dir, '--offline'], { cwd: dir, timeoutMs: 60_000 });
    expect(offline.stderr).not.toContain('MCP004');
    expect(offline.code, offline.stderr).toBe(0);
  });
});
