// End-to-end through the CLI for the OpenAI Responses API (`api = "responses"`, a reasoning model:
// every request after the first carries the reasoning items the fake server handed out, which it
// checks) and for Ollama (`provider = "ollama"`, its OpenAI-compatible Chat Completions under
// base_url + /v1): a commander and a worker with parallel and sequential tool calls, kill -9 in the
// middle of the worker's tool loop then resume, each kind of provider fault, record then replay,
// and `plan --show-prompt` equal to what run sends.

import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { strictToolSchema } from '../../runtime/providers/strictSchema.js';
import { commanderOf, LOCAL_HTTP, openRunDb, removeProjects, requestsOf, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, turnScript, type TurnReply } from '../support/turnScript.js';

const FAST_RETRIES = { SQUADRON_RETRY_BASE_DELAY_MS: '10' };

let site: Server;
let siteUrl = '';

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`word at ${req.url}: ${{ '/a': 'amber', '/b': 'basalt', '/c': 'cobalt' }[req.url ?? ''] ?? 'none'}`);
  });
  siteUrl = await listenLocal(site);
});

afterAll(async () => {
  await closeServer(site);
  removeProjects();
});

interface Wire {
  name: string;
  /** The route the adapter must use. */
  path: string;
  modelBlock(server: FakeModelServer): string;
  model: string;
  /** Commander settings besides the model. */
  commanderExtra: string;
  /** How this server differs on a tool-calling turn (Ollama: finish_reason "stop", arguments in one chunk). */
  toolTurn?: Partial<FakeReply>;
}

const WIRES: Wire[] = [
  {
    name: 'openai responses',
    path: '/v1/responses',
    modelBlock: (s) => `model "fake" {\n  provider = "openai"\n  api      = "responses"\n  base_url = "${s.openaiBaseURL}"\n  api_key  = "test-key-123"\n}\n`,
    model: 'models.fake.gpt_5',
    // Case-insensitive, as Go reads it; inherited by the worker.
    commanderExtra: 'reasoning = "High"',
  },
  {
    name: 'ollama',
    path: '/v1/chat/completions',
    // base_url is the server root, as Ollama documents it; no api_key.
    modelBlock: (s) => `model "fake" {\n  provider       = "ollama"\n  base_url       = "${s.url}"\n  context_window = 32000\n}\n`,
    model: 'models.fake.qwen3',
    commanderExtra: '',
    toolTurn: { rawStopReason: 'stop', chunkSize: 100_000 },
  },
];

function missionHcl(wire: Wire, server: FakeModelServer): string {
  return `${LOCAL_HTTP}${wire.modelBlock(server)}
mission "probe" {
  commander {
    model = ${wire.model}
    ${wire.commanderExtra}
  }
  task "fetch" {
    objective = "Collect the three words published at ${siteUrl}"
    tools     = [builtins.http.get]
  }
}
`;
}

/** The worker: two calls at once (with reasoning first), one more call, then its answer. */
function workerTurns(): TurnReply[] {
  return [
    { thinking: [{ text: 'Fetch a and b together.' }], toolCalls: [{ name: 'builtins_http_get', input: { url: `${siteUrl}/a` } }, { name: 'builtins_http_get', input: { url: `${siteUrl}/b` } }] },
    { thinking: [{ text: 'Now c.' }], toolCalls: [{ name: 'builtins_http_get', input: { url: `${siteUrl}/c` } }] },
    (req) => ({ text: `Words: ${wordsSeen(req).join(', ')}` }),
  ];
}

function script(wire: Wire) {
  const s = turnScript({
    [commanderOf('fetch')]: [callAgent('worker', 'Fetch /a, /b and /c and report the words.'), (req) => taskComplete(`Worker said: ${JSON.parse(lastToolResult(req)).answer}`)],
    [workerOf('fetch')]: workerTurns(),
  });
  return {
    problems: s.problems,
    respond: (req: FakeRequest): FakeReply => {
      const reply = s.respond(req);
      return reply.toolCalls && wire.toolTurn ? { ...reply, ...wire.toolTurn } : reply;
    },
  };
}

function wordsSeen(req: FakeRequest): string[] {
  const results = req.canonical.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_result' ? p.content.map((c) => (c.type === 'text' ? c.text : '')) : [])));
  return results.flatMap((t) => /: (\w+)$/m.exec(t.split('\n').pop() ?? '')?.slice(1) ?? []);
}

function reasoningItemsSent(req: FakeRequest): number {
  return req.canonical.messages.flatMap((m) => m.parts).filter((p) => p.type === 'thinking' && p.reasoningItem !== undefined).length;
}

describe.each(WIRES)('squadron run ($name)', (wire) => {
  it('runs a commander and a worker with parallel and sequential tool calls, on its own route', async () => {
    const s = script(wire);
    const server = await startFakeModelServer({ respond: s.respond });
    try {
      const dir = writeProject({ 'mission.hcl': missionHcl(wire, server) });
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(s.problems).toEqual([]);
      expect(server.errors).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc.tasks.fetch.summary).toBe('Worker said: Words: amber, basalt, cobalt');
      expect(doc.usage.model_turns).toBe(5);
      expect(new Set(server.requests.map((r) => r.path))).toEqual(new Set([wire.path]));
      expect(server.requests.every((r) => r.stream)).toBe(true);
      const worker = requestsOf(server, workerOf('fetch'));
      expect(worker).toHaveLength(3);
      // The parallel calls went out as one assistant turn, their results back in one user turn.
      expect(worker[1]!.canonical.messages.map((m) => m.parts.filter((p) => p.type !== 'thinking').map((p) => p.type))).toEqual([
        ['text'],
        ['tool_use', 'tool_use'],
        ['tool_result', 'tool_result'],
      ]);
      if (wire.path === '/v1/responses') {
        expect(worker[0]!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'high' } });
        // Every reasoning item handed out went back, in its place (the server checked each one).
        expect(worker.map(reasoningItemsSent)).toEqual([0, 1, 2]);
        const db = openRunDb(dir);
        const parts = db.prepare('SELECT group_concat(parts_json) AS all_parts FROM messages').get() as { all_parts: string };
        db.close();
        expect(parts.all_parts).toContain('"encrypted_content":"enc_');
        expect(parts.all_parts).not.toContain('test-key-123');
        // The transcript shows a reasoning summary, and says when there is none to show.
        const transcript = await runCli(['inspect', doc.run_id, '--transcript', '--db', dir], { cwd: dir });
        expect(transcript.code, transcript.stderr).toBe(0);
        expect(transcript.stdout).toContain('[thinking] Fetch a and b together.');
        expect(transcript.stdout).toContain('[thinking] (encrypted)');
      } else {
        expect(worker[0]!.headers['authorization']).toBe('Bearer ollama');
        expect(worker[0]!.body).not.toHaveProperty('reasoning_effort');
      }
    } finally {
      await server.close();
    }
  }, 180_000);

  it('resumes after kill -9 in the middle of the worker tool loop; the resumed request passes the server checks', async () => {
    const s = script(wire);
    let child: ChildProcess | undefined;
    let killedAt: FakeRequest | undefined;
    const server = await startFakeModelServer({ respond: s.respond });
    server.onRequest = (_n, req) => {
      // The worker's third request: after both tool turns, before its answer.
      if (killedAt === undefined && req.canonical.system.includes(workerOf('fetch')) && req.canonical.messages.filter((m) => m.role === 'assistant').length === 2) {
        killedAt = req;
        child?.kill('SIGKILL');
      }
    };
    try {
      const dir = writeProject({ 'mission.hcl': missionHcl(wire, server) });
      const first = await runCli(['run', dir], { cwd: dir, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      const db = openRunDb(dir);
      const runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
      db.close();
      const resumed = await runCli(['resume', runId, '--db', dir, '--json'], { cwd: dir });
      expect(server.errors).toEqual([]);
      expect(s.problems).toEqual([]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).tasks.fetch.summary).toBe('Worker said: Words: amber, basalt, cobalt');
      const worker = requestsOf(server, workerOf('fetch'));
      const again = worker[worker.indexOf(killedAt!) + 1]!;
      // Built from the store alone, the resumed request is the one the killed process sent.
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(killedAt!.body));
      if (wire.path === '/v1/responses') expect(reasoningItemsSent(again)).toBe(2);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('retries a 429, a 5xx, a dropped stream and a stream error event, then completes', async () => {
    const s = script(wire);
    const faults: FakeReply[] = [{ status: 429, retryAfterMs: 5 }, { status: 503 }, { text: 'partial words that never end', drop: true, chunkSize: 4 }, { text: 'partial again', streamError: { type: 'server_error' }, chunkSize: 4 }];
    let workerFirstTurns = 0;
    const server = await startFakeModelServer({
      respond: (req) => {
        const workerTurnOne = req.canonical.system.includes(workerOf('fetch')) && !req.canonical.messages.some((m) => m.role === 'assistant');
        if (workerTurnOne) workerFirstTurns++;
        return (workerTurnOne ? faults.shift() : undefined) ?? s.respond(req);
      },
    });
    try {
      const dir = writeProject({ 'mission.hcl': missionHcl(wire, server) });
      const result = await runCli(['run', dir, '--json'], { cwd: dir, env: FAST_RETRIES });
      expect(result.code, result.stderr).toBe(0);
      expect(s.problems).toEqual([]);
      expect(workerFirstTurns).toBe(5);
      expect(JSON.parse(result.stdout).tasks.fetch.summary).toBe('Worker said: Words: amber, basalt, cobalt');
    } finally {
      await server.close();
    }
  }, 180_000);

  it('records a cassette and replays it without calling the model', async () => {
    const s = script(wire);
    const server = await startFakeModelServer({ respond: s.respond });
    try {
      const dir = writeProject({ 'mission.hcl': missionHcl(wire, server) });
      const cassette = join(dir, 'probe.jsonl');
      const recorded = await runCli(['run', dir, '--json', '--record', cassette], { cwd: dir });
      expect(recorded.code, recorded.stderr).toBe(0);
      const calls = server.requests.length;
      const replayed = await runCli(['run', dir, '--json', '--replay', cassette], { cwd: dir });
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(server.requests.length).toBe(calls);
      const doc = JSON.parse(replayed.stdout);
      expect(doc.tasks.fetch.summary).toBe(JSON.parse(recorded.stdout).tasks.fetch.summary);
      expect(doc.usage.cost_usd).toBe(0);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('plan --show-prompt shows the system prompt and tools that run sends', async () => {
    const s = script(wire);
    const server = await startFakeModelServer({ respond: s.respond });
    try {
      const dir = writeProject({ 'mission.hcl': missionHcl(wire, server) });
      const plan = await runCli(['plan', dir, '--json', '--show-prompt'], { cwd: dir });
      expect(plan.code, plan.stderr).toBe(0);
      const task = JSON.parse(plan.stdout).tasks[0];
      const run = await runCli(['run', dir], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const commander = requestsOf(server, commanderOf('fetch'))[0]!;
      const worker = requestsOf(server, workerOf('fetch'))[0]!;
      expect(commander.canonical.system).toBe(task.commander.system_prompt);
      expect(worker.canonical.system).toBe(task.agents[0].system_prompt);
      const asPlanned = (r: FakeRequest) => r.canonical.tools.map((d) => ({ name: d.name, description: d.description, input_schema: d.inputSchema, ...(d.strict ? { strict: true } : {}) }));
      // A strict tool goes out in OpenAI's strict form (both wires here are OpenAI's).
      type Planned = { strict?: boolean; input_schema: Record<string, unknown> };
      const onTheWire = (defs: Planned[]) => defs.map((d) => (d.strict ? { ...d, input_schema: strictToolSchema(d.input_schema, 'openai') ?? d.input_schema } : d));
      expect(JSON.stringify(asPlanned(commander))).toBe(JSON.stringify(onTheWire(task.commander.tool_definitions)));
      expect(JSON.stringify(asPlanned(worker))).toBe(JSON.stringify(onTheWire(task.agents[0].tool_definitions)));
    } finally {
      await server.close();
    }
  }, 180_000);
});

describe('validate for the new providers', () => {
  it('names the API of each openai and ollama block, and warns of an Ollama model window it cannot know', async () => {
    const dir = writeProject({
      'mission.hcl': `model "cloud" {\n  provider = "openai"\n  api_key  = "k-1234"\n}\nmodel "proxy" {\n  provider = "openai"\n  base_url = "http://127.0.0.1:9/v1"\n}\nmodel "local" {\n  provider = "ollama"\n}\nmission "m" {\n  commander { model = models.cloud.gpt_5 }\n  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    model     = models.local.llama3\n  }\n}\n`,
    });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('cloud (openai, responses API), proxy (openai, chat completions API, no api_key), local (ollama, chat completions API)');
    expect(result.stderr).toContain('warning[MOD005]: the context window of models.local.llama3 (llama3) is unknown: 32,000 tokens is assumed');
    expect(result.stderr).toContain('set context_window on model "local"');
    const json = await runCli(['validate', dir, '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout).summary.models).toEqual([
      { name: 'cloud', provider: 'openai', api_key: true, api: 'responses' },
      { name: 'proxy', provider: 'openai', api_key: false, api: 'chat_completions' },
      { name: 'local', provider: 'ollama', api_key: false, api: 'chat_completions' },
    ]);
  });

  it('refuses reasoning an Ollama model or a non-reasoning model cannot take, with a hint, and an unknown effort', async () => {
    const dir = writeProject({
      'mission.hcl': `model "local" {\n  provider       = "ollama"\n  context_window = 8000\n}\nmodel "cloud" {\n  provider = "openai"\n  api_key  = "k-1234"\n}\nmission "m" {\n  commander {\n    model     = models.local.qwen3\n    reasoning = "low"\n  }\n  agent_defaults {\n    model     = models.cloud.gpt_4_1\n    reasoning = "HIGH"\n  }\n  task "t" {\n    objective = "x"\n    tools     = [builtins.http.get]\n    reasoning = "extreme"\n  }\n}\n`,
    });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/mission\.hcl:12:17: error\[SCH016\]: reasoning = "low" cannot be sent to models\.local\.qwen3: Ollama models take no reasoning effort/);
    expect(result.stderr).toMatch(/mission\.hcl:16:17: error\[SCH016\]: gpt_4_1 does not support a reasoning effort; reasoning = "high" cannot be sent/);
    expect(result.stderr).toMatch(/mission\.hcl:21:17: error\[SCH010\]: reasoning must be one of "low", "medium", "high" \(any case\); got "extreme"/);
    expect(result.stderr).toContain('remove reasoning');
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('plan shows how each provider receives reasoning', async () => {
    const agent = (name: string, model: string) => `agent "${name}" {\n  model       = ${model}\n  personality = "p"\n  reasoning   = "Medium"\n}\n`;
    const dir = writeProject({
      'mission.hcl': `model "claude" {\n  provider = "anthropic"\n  api_key  = "k-1234"\n}\nmodel "gpt" {\n  provider = "openai"\n  api_key  = "k-1234"\n}\nmodel "compat" {\n  provider = "openai"\n  base_url = "http://127.0.0.1:9/v1"\n}\n${agent('budget', 'models.claude.claude_haiku_4_5')}${agent('adaptive', 'models.claude.claude_sonnet_4_6')}${agent('responses', 'models.gpt.gpt_5')}${agent('chat', 'models.compat.gpt_5')}mission "m" {\n  commander {\n    model     = models.gpt.o3\n    reasoning = "LOW"\n  }\n  task "t" {\n    objective = "x"\n    agents    = [agents.budget, agents.adaptive, agents.responses, agents.chat]\n  }\n}\n`,
    });
    const result = await runCli(['plan', dir, '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const task = JSON.parse(result.stdout).tasks[0];
    expect(task.commander).toMatchObject({ reasoning: 'low', reasoning_sent: 'reasoning.effort low, reasoning items sent back' });
    expect(Object.fromEntries(task.agents.map((a: { name: string; reasoning_sent: string }) => [a.name, a.reasoning_sent]))).toEqual({
      budget: 'extended thinking, budget 8,192 tokens',
      adaptive: 'adaptive thinking, effort medium',
      responses: 'reasoning.effort medium, reasoning items sent back',
      chat: 'reasoning_effort medium',
    });
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.stdout).toContain('commander  gpt.o3 (reasoning low: reasoning.effort low, reasoning items sent back)');
  });

  it('squadron docs model shows a block for each provider', async () => {
    const docs = await runCli(['docs', 'model'], { env: { COLUMNS: '100' } });
    expect(docs.code, docs.stderr).toBe(0);
    for (const provider of ['anthropic', 'openai', 'ollama']) expect(docs.stdout).toMatch(new RegExp(`provider\\s+= "${provider}"`));
    expect(docs.stdout).toContain('api = "responses"');
    expect(docs.stdout).toContain('MOD005');
  });
});
