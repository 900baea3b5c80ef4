// End-to-end: MCP tool sources used by a run. A stdio server (spawned by the CLI) and a Streamable
// HTTP server (started here) — both written with the SDK in test/support — provide `mcp.<n>.<tool>`
// and `mcp.<n>.all` tools; structured content and images reach the model; a server killed mid-run is
// restarted once and its failures reach the model as tool errors; no server process outlives the run;
// `squadron validate` checks mcp refs in bounded time and `--offline` makes those checks warnings.

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  ANTHROPIC_MODEL,
  fakeModelBlock,
  latestToolResults,
  openRunDb,
  requestsOf,
  resultText,
  toolNames,
  workerOf,
  writeProject,
  removeProjects,
  OFFLINE_MODEL_BLOCK,
  LOCAL_HTTP,
} from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../support/mcpHttpServer.js';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { TEST_PNG_BASE64 } from '../support/mcpTestTools.mjs';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

// Each test spawns the CLI several times; the machine may be shared and slow.
afterAll(removeProjects);

/** The tools of test/support/mcpTestTools.mjs, in the server's order. */
const SERVER_TOOLS = ['echo', 'add', 'image', 'weather', 'weather_with_text', 'resources', 'fail', 'append_line', 'pid', 'slow', 'crash'];

let http: McpHttpTestServer;

beforeAll(async () => {
  http = await startMcpHttpServer();
});

afterAll(async () => {
  await http.close();
});

function stdioBlock(name: string, env: Record<string, string> = {}): string {
  const envText = Object.entries(env).map(([k, v]) => `${k} = "${v}"`).join(', ');
  return `mcp "${name}" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
  env     = { ${envText} }
}
`;
}

/** The MCP mission; `again` adds a second task that uses the local server after the first. */
function project(model: string, tools: string, extra = '', again = false): string {
  const second = again
    ? `
  task "again" {
    objective  = "Use the local server once more."
    depends_on = [tasks.use]
    tools      = [mcp.local.pid]
  }`
    : '';
  return writeProject({
    'mission.hcl': `${model}
${LOCAL_HTTP}
${stdioBlock('local')}
${stdioBlock('fragile')}
mcp "remote" {
  url = "${http.url}"
}
${extra}
mission "mcp" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "use" {
    objective = "Use the MCP tools."
    tools     = ${tools}
    discovery = false
  }
${second}
}
`,
  });
}

const TOOLS = '[mcp.local.all, mcp.fragile.crash, mcp.fragile.echo, mcp.remote.echo, mcp.remote.image]';

interface JsonDiagnostic {
  code: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

/** The MCP diagnostics of `validate --format json` (other checks, e.g. model deprecations, are not this file's business). */
function mcpDiagnostics(stdout: string): JsonDiagnostic[] {
  return (JSON.parse(stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics.filter((d) => d.code.startsWith('MCP'));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCP servers in a run', () => {
  let server: FakeModelServer;
  let dir: string;
  let code: number | null;
  let stderr: string;

  beforeAll(async () => {
    const turns = turnScript({
      'commander of task "use"': [callAgent('worker', 'Exercise the MCP tools.'), (req) => taskComplete(`Worker: ${lastToolResult(req)}`)],
      'worker agent of task "use"': [
        toolCall('mcp_local_pid', {}),
        toolCall('mcp_local_weather', { city: 'Oslo' }),
        toolCall('mcp_remote_image', {}),
        toolCall('mcp_remote_echo', { text: 'over http' }),
        toolCall('mcp_local_crash', {}),
        toolCall('mcp_local_pid', {}),
        toolCall('mcp_fragile_crash', {}),
        toolCall('mcp_fragile_crash', {}),
        toolCall('mcp_fragile_echo', { text: 'still there?' }),
        { text: 'Done with the MCP tools.' },
      ],
      'commander of task "again"': [callAgent('worker', 'Which pid?'), (req) => taskComplete(`Worker: ${lastToolResult(req)}`)],
      'worker agent of task "again"': [toolCall('mcp_local_pid', {}), (req) => ({ text: lastToolResult(req) })],
    });
    server = await startFakeModelServer({ respond: turns.respond });
    dir = project(fakeModelBlock(server), TOOLS, '', true);
    const run = await runCli(['run', dir], { cwd: dir });
    expect(turns.problems).toEqual([]);
    code = run.code;
    stderr = run.stderr;
  });

  afterAll(async () => {
    await server.close();
  });

  const worker = () => requestsOf(server, workerOf('use'));
  const result = (turn: number) => latestToolResults(worker()[turn]!)[0]!;

  it('offers mcp.<n>.all expanded in the server order and single mcp.<n>.<tool> refs, with their schemas', async () => {
    expect(code, stderr).toBe(0);
    const first = worker()[0]!;
    expect(toolNames(first)).toEqual([
      ...SERVER_TOOLS.map((t) => `mcp_local_${t}`),
      'mcp_fragile_crash',
      'mcp_fragile_echo',
      'mcp_remote_echo',
      'mcp_remote_image',
    ]);
    const echo = first.canonical.tools.find((t) => t.name === 'mcp_remote_echo')!;
    expect(echo.description).toBe('Echo the given text back.');
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(stderr).toContain('worker[use]: 15 tools (task 15)');

    const plan = await runCli(['plan', dir, '--json'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout).tasks[0].agents[0].tools;
    expect(planned.slice(0, 2)).toEqual([
      { ref: 'mcp.local.echo', via: 'task' },
      { ref: 'mcp.local.add', via: 'task' },
    ]);
    expect(planned.map((t: { ref: string }) => t.ref).slice(-2)).toEqual(['mcp.remote.echo', 'mcp.remote.image']);
  });

  it('passes structured content and images through to the model', () => {
    const weather = result(2);
    expect(weather.isError).toBe(false);
    expect(JSON.parse(resultText(weather))).toEqual({ city: 'Oslo', celsius: 21.5, conditions: ['sunny', 'dry'] });
    const image = result(3);
    expect(image.content).toEqual([
      { type: 'text', text: 'here is the image' },
      { type: 'image', mediaType: 'image/png', data: TEST_PNG_BASE64 },
    ]);
    expect(resultText(result(4))).toBe('over http');
    const db = openRunDb(dir);
    const row = db.prepare("SELECT result_json FROM tool_calls WHERE tool_ref = 'mcp.local.weather'").get() as { result_json: string };
    db.close();
    expect(JSON.parse(row.result_json).structured).toEqual({ city: 'Oslo', celsius: 21.5, conditions: ['sunny', 'dry'] });
  });

  it('restarts a server killed mid-run once, and reports its failures to the model as tool errors', () => {
    const pidBefore = Number(resultText(result(1)));
    const crash = result(5);
    expect(crash.isError).toBe(true);
    expect(resultText(crash)).toContain('MCP server "local" stopped during the call to "crash" (it will be restarted on the next call)');
    const pidAfter = Number(resultText(result(6)));
    expect(result(6).isError).toBe(false);
    expect(pidAfter).not.toBe(pidBefore);

    expect(resultText(result(7))).toContain('it will be restarted on the next call');
    expect(resultText(result(8))).toContain('MCP server "fragile" stopped during the call to "crash" (it will not be restarted again)');
    const unavailable = result(9);
    expect(unavailable.isError).toBe(true);
    expect(resultText(unavailable)).toContain('MCP server "fragile" is unavailable: it failed 2 times during this run');
    // The run itself never crashed: the task completed with the worker's answer.
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('starts a server once per run and shares it between the tasks that use it', () => {
    const pidAfter = Number(resultText(result(6)));
    const again = requestsOf(server, workerOf('again'));
    expect(toolNames(again[0])).toEqual(['mcp_local_pid']);
    expect(Number(resultText(latestToolResults(again[1]!)[0]))).toBe(pidAfter);
  });

  it('leaves no server process or HTTP session behind', () => {
    const pidAfter = Number(resultText(result(6)));
    expect(pidAfter).toBeGreaterThan(0);
    expect(isAlive(pidAfter)).toBe(false);
    expect(http.stats.initializations).toBeGreaterThanOrEqual(1);
    expect(http.sessionCount()).toBe(0);
  });

  it('--tool restricts a worker holding mcp.<n>.all to one of that server\'s tools', async () => {
    const plan = await runCli(['plan', dir, '--json', '--tool', 'mcp.local.echo', '--tool', 'mcp.remote.image'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    const agent = JSON.parse(plan.stdout).tasks[0].agents[0];
    expect(agent.tools).toEqual([
      { ref: 'mcp.local.echo', via: 'task' },
      { ref: 'mcp.remote.image', via: 'task' },
    ]);
    expect(agent.first_request_tools).toEqual(['mcp_local_echo', 'mcp_remote_image']);
  });
});

describe('an MCP server that asks the operator a question (elicitation)', () => {
  it('parks the call until `answer`, then runs it again and the server gets the answer', async () => {
    const turns = turnScript({
      'commander of task "use"': [callAgent('worker', 'Ask.'), (req) => taskComplete(`Worker: ${lastToolResult(req)}`)],
      'worker agent of task "use"': [toolCall('mcp_asking_ask', {}), (req) => ({ text: lastToolResult(req) })],
    });
    const model = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = project(fakeModelBlock(model), '[mcp.asking.ask]', stdioBlock('asking', { MCP_TEST_ASKING: '1' }));
      const run = await runCli(['run', dir], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(4);
      expect(run.stdout).toContain('MCP server "asking" asks: Which city?');
      const db = openRunDb(dir);
      const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
      expect(db.prepare("SELECT status FROM tool_calls WHERE tool_ref = 'mcp.asking.ask'").pluck().get()).toBe('pending_approval');
      db.close();
      const wrong = await runCli(['answer', runId, '--field', 'town=Paris', '--db', dir], { cwd: dir });
      expect(wrong.stderr).toContain('the form has no field "town" (fields: city)');
      expect((await runCli(['answer', runId, '--field', 'city=Paris', '--db', dir], { cwd: dir })).code).toBe(0);
      const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const answered = latestToolResults(requestsOf(model, workerOf('use')).at(-1)!)[0]!;
      expect(resultText(answered)).toBe('the operator said {"action":"accept","content":{"city":"Paris"}}');
    } finally {
      await model.close();
    }
  });

  it('tells the server the operator declined', async () => {
    const turns = turnScript({
      'commander of task "use"': [callAgent('worker', 'Ask.'), (req) => taskComplete(`Worker: ${lastToolResult(req)}`)],
      'worker agent of task "use"': [toolCall('mcp_asking_ask', {}), (req) => ({ text: lastToolResult(req) })],
    });
    const model = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = project(fakeModelBlock(model), '[mcp.asking.ask]', stdioBlock('asking', { MCP_TEST_ASKING: '1' }));
      expect((await runCli(['run', dir], { cwd: dir })).code).toBe(4);
      const db = openRunDb(dir);
      const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
      db.close();
      expect((await runCli(['answer', runId, '--decline', '--db', dir], { cwd: dir })).code).toBe(0);
      expect((await runCli(['resume', runId, '--db', dir], { cwd: dir })).code).toBe(0);
      const answered = latestToolResults(requestsOf(model, workerOf('use')).at(-1)!)[0]!;
      expect(resultText(answered)).toBe('the operator said {"action":"decline"}');
    } finally {
      await model.close();
    }
  });
});

describe('squadron validate and MCP references', () => {
  const model = OFFLINE_MODEL_BLOCK;

  it('connects to stdio and HTTP servers to check refs, and reports an unknown tool at its reference', async () => {
    const pidFile = join(writeProject({}), 'pid');
    const ok = project(model, '[mcp.local.echo, mcp.remote.echo, mcp.tracked.add]', stdioBlock('tracked', { MCP_TEST_PID_FILE: pidFile }));
    const valid = await runCli(['validate', ok], { cwd: ok });
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('config is valid');
    // validate started the tracked server to list its tools, and stopped it again.
    const trackedPid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(trackedPid)).toBe(false);

    const bad = project(model, '[mcp.local.ech, mcp.remote.echo]');
    const json = await runCli(['validate', bad, '--format', 'json'], { cwd: bad });
    expect(json.code).toBe(1);
    const diags = mcpDiagnostics(json.stdout);
    const source = readFileSync(join(bad, 'mission.hcl'), 'utf8').split('\n');
    const line = source.findIndex((l) => l.includes('mcp.local.ech,')) + 1;
    const column = source[line - 1]!.indexOf('mcp.local.ech') + 1;
    expect(diags.map((d) => [d.severity, d.code, d.file, d.line, d.column])).toEqual([['error', 'MCP001', 'mission.hcl', line, column]]);
    expect(diags[0]!.message).toBe('mcp server "local" has no tool "ech"');
  });

  it('reports an unreachable or silent server as MCP002 within a bounded time', async () => {
    const dir = project(
      model,
      '[mcp.down.anything, mcp.silent.anything]',
      `mcp "down" {\n  url = "http://127.0.0.1:9/mcp"\n}\nmcp "silent" {\n  command = "${process.execPath}"\n  args    = ["-e", "setInterval(() => {}, 1000)"]\n}\n`,
    );
    const started = Date.now();
    const result = await runCli(['validate', dir, '--format', 'json'], { cwd: dir, timeoutMs: 150_000 });
    const elapsed = Date.now() - started;
    expect(result.code).toBe(1);
    const diags = mcpDiagnostics(result.stdout);
    expect(diags.map((d) => d.code)).toEqual(['MCP002', 'MCP002']);
    expect(diags.find((d) => d.message.includes('"silent"'))!.message).toMatch(/time/i);
    // Bounded by the 30 s start-up limit (both servers are tried at once), with room for a busy machine.
    expect(elapsed).toBeLessThan(100_000);
  }, 180_000);

  it('--offline contacts no server and turns the MCP checks into warnings, using the cached tool lists', async () => {
    const pidFile = join(writeProject({}), 'pid');
    const servers = `${stdioBlock('tracked', { MCP_TEST_PID_FILE: pidFile })}\nmcp "down" {\n  url = "http://127.0.0.1:9/mcp"\n}\n`;
    const dir = project(model, '[mcp.tracked.ech, mcp.down.anything]', servers);
    const offline = await runCli(['validate', dir, '--offline', '--format', 'json'], { cwd: dir });
    expect(offline.code, offline.stdout).toBe(0);
    expect(JSON.parse(offline.stdout).valid).toBe(true);
    const doc = { diagnostics: mcpDiagnostics(offline.stdout) };
    // Nothing cached yet: each referenced server is reported as unchecked, as a warning.
    expect(doc.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['warning', 'MCP002'],
      ['warning', 'MCP002'],
    ]);
    expect(doc.diagnostics[0]!.message).toContain('was not contacted (offline)');
    expect(existsSync(pidFile)).toBe(false);

    // An online validate fills the cache (and reports the typo as an error)...
    const online = await runCli(['validate', dir, '--format', 'json'], { cwd: dir });
    expect(online.code).toBe(1);
    expect(mcpDiagnostics(online.stdout).map((d) => [d.severity, d.code])).toEqual([
      ['error', 'MCP002'],
      ['error', 'MCP001'],
    ]);
    expect(existsSync(pidFile)).toBe(true);
    rmSync(pidFile);
    // ...which the offline check then uses without starting the server: the typo is a warning.
    const cached = await runCli(['validate', dir, '--offline'], { cwd: dir });
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stderr).toMatch(/warning\[MCP001\]: mcp server "tracked" has no tool "ech" \(in its cached tool list\)/);
    expect(cached.stderr).toContain('did you mean mcp.tracked.echo?');
    expect(cached.stdout).toContain('config is valid');
    expect(existsSync(pidFile)).toBe(false);
  });
});
