// End-to-end: MCP sampling. The everything reference server (a devDependency, over stdio) asks for a
// completion during `trigger-sampling-request`; with `sampling = true` Squadron answers it with the
// worker's model (or the block's `sampling_model`) through the fake model server, keeps the server's
// maxTokens, and records the turn in the session `mcp.<server>.sampling` (messages, a priced turn,
// shown by inspect). A server without `sampling = true` is refused with a clear error the model reads.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, latestToolResults, openRunDb, removeProjects, requestsOf, resultText, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const SAMPLED = 'the fake model samples for the server';

function task(name: string, tools: string): string {
  return `  task "${name}" {\n    objective = "Use the ${name} tools."\n    tools     = ${tools}\n    discovery = false\n  }\n`;
}

describe('MCP sampling', () => {
  let model: FakeModelServer;
  let dir: string;
  let code: number | null;
  let stdout: string;
  let stderr: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const turns = turnScript({
      ...Object.fromEntries(['sampled', 'chosen', 'refused'].map((t) => [`commander of task "${t}"`, [callAgent('worker', `Do the ${t} part.`), (req: FakeRequest) => taskComplete(lastToolResult(req))]])),
      'worker agent of task "sampled"': [toolCall('mcp_every_trigger-sampling-request', { prompt: 'Say hello', maxTokens: 37 }), { text: 'Sampled.' }],
      'worker agent of task "chosen"': [toolCall('mcp_haiku_trigger-sampling-request', { prompt: 'Say goodbye', maxTokens: 20 }), { text: 'Chosen.' }],
      'worker agent of task "refused"': [toolCall('mcp_plain_summarize', { text: 'a long text' }), { text: 'Refused.' }],
      'helpful test server': [{ text: SAMPLED }],
    });
    model = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({
      'mission.hcl': `${fakeModelBlock(model)}
mcp "every" {
  command  = "${process.execPath}"
  args     = ["${EVERYTHING}"]
  sampling = true
}
mcp "haiku" {
  command        = "${process.execPath}"
  args           = ["${EVERYTHING}"]
  sampling       = true
  sampling_model = models.fake.claude_haiku_4_5
}
mcp "plain" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
  env     = { MCP_TEST_SAMPLING = "1" }
}
mission "sampling" {
  max_parallel = 1
  commander { model = ${ANTHROPIC_MODEL} }
${task('sampled', '[mcp.every["trigger-sampling-request"]]')}
${task('chosen', '[mcp.haiku["trigger-sampling-request"]]')}
${task('refused', '[mcp.plain.summarize]')}
}
`,
    });
    const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
    problems.push(...turns.problems);
    code = run.code;
    stdout = run.stdout;
    stderr = run.stderr;
  }, 240_000);

  afterAll(async () => {
    await model.close();
  });

  const samplingRequests = () => requestsOf(model, 'helpful test server');

  it('completes the run with every scripted turn used', () => {
    expect(problems).toEqual([]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
  });

  it("answers the server with the worker's model, within the server's maxTokens", () => {
    const result = latestToolResults(requestsOf(model, workerOf('sampled'))[1]!)[0]!;
    expect(result.isError, resultText(result)).toBe(false);
    expect(resultText(result)).toContain(SAMPLED);
    const [first] = samplingRequests();
    const body = first!.body as { model: string; max_tokens: number; messages: unknown[] };
    expect(body.model).toBe('claude-sonnet-4-6');
    expect(body.max_tokens).toBe(37);
    expect(JSON.stringify(body.messages)).toContain('Say hello');
  });

  it("answers with the block's sampling_model when it names one", () => {
    const result = latestToolResults(requestsOf(model, workerOf('chosen'))[1]!)[0]!;
    expect(resultText(result)).toContain(SAMPLED);
    const chosen = samplingRequests().find((r) => JSON.stringify(r.body).includes('Say goodbye'));
    const body = chosen!.body as { model: string; max_tokens: number };
    expect(body.model).toBe('claude-haiku-4-5-20251001');
    expect(body.max_tokens).toBe(20);
  });

  it('records each answer as a priced turn of the session mcp.<server>.sampling', () => {
    const db = openRunDb(dir);
    try {
      const sessions = db.prepare("SELECT id, task_name, agent, model FROM sessions WHERE agent LIKE 'mcp.%.sampling' ORDER BY rowid").all() as { id: string; task_name: string; agent: string; model: string }[];
      expect(sessions.map((s) => [s.task_name, s.agent, s.model])).toEqual([
        ['sampled', 'mcp.every.sampling', 'claude-sonnet-4-6'],
        ['chosen', 'mcp.haiku.sampling', 'claude-haiku-4-5-20251001'],
      ]);
      const messages = db.prepare('SELECT role, kind, parts_json FROM messages WHERE session_id = ? ORDER BY seq').all(sessions[0]!.id) as { role: string; kind: string | null; parts_json: string }[];
      expect(messages.map((m) => [m.role, m.kind])).toEqual([
        ['user', 'sampling'],
        ['assistant', null],
      ]);
      expect(messages[1]!.parts_json).toContain(SAMPLED);
      const turns = db.prepare('SELECT session_id, turn, output_tokens, cost_usd FROM model_turns WHERE session_id IN (?, ?)').all(sessions[0]!.id, sessions[1]!.id) as { turn: number; output_tokens: number; cost_usd: number }[];
      expect(turns).toHaveLength(2);
      for (const t of turns) {
        expect(t.turn).toBe(1);
        expect(t.output_tokens).toBeGreaterThan(0);
        expect(t.cost_usd).toBeGreaterThan(0);
      }
    } finally {
      db.close();
    }
  });

  it('inspect shows the sampling session with its messages', async () => {
    const db = openRunDb(dir);
    const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
    db.close();
    const inspected = await runCli(['inspect', runId, '--db', dir, '--task', 'sampled', '--transcript'], { cwd: dir });
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stdout).toContain('mcp.every.sampling');
    expect(inspected.stdout).toContain(SAMPLED);
  });

  it('refuses a server without sampling = true, and the model is told how to allow it', () => {
    const result = latestToolResults(requestsOf(model, workerOf('refused'))[1]!)[0]!;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      'MCP server "plain" asked for a model completion during the call to "summarize", but sampling is off for MCP server "plain": set sampling = true on its mcp block to let it ask for model completions',
    );
    expect(samplingRequests().some((r) => JSON.stringify(r.body).includes('a long text'))).toBe(false);
  });
});
