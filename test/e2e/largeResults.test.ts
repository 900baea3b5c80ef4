// End-to-end: large tool results stored by handle (docs/concepts/context.md). A 1 MB JSON result and
// a 1 MB text from a real stdio MCP server reach the model as previews of at most 2 KB, and the
// worker pages and searches through them with result_read and result_search; a text holding a secret
// is stored redacted; images become notes; a handle the worker's answer names is readable by its
// commander but not by another agent; after kill -9 and resume the next request is byte-identical
// and the handle still reads; an agent's answer over the commander's limit is previewed too.

import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  agentOf,
  ANTHROPIC_MODEL,
  commanderOf,
  fakeModelBlock,
  latestToolResults,
  openRunDb,
  removeProjects,
  requestsOf,
  resultText,
  toolNames,
  workerOf,
  writeProject,
} from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { MCP_BIG_SERVER_PATH } from '../support/mcpBigServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const SECRET = 'sq-big-Zq8v7K-secret';
const TAIL = 'Zq8v7K-secret';
const HANDLE = /res_[0-9a-f]{16}/;

function projectHcl(server: FakeModelServer, tools: string, agents: string): string {
  return `${fakeModelBlock(server)}
variable "tok" {
  secret = true
}
mcp "big" {
  command = "${process.execPath}"
  args    = ["${MCP_BIG_SERVER_PATH}"]
  env     = { BIG_SECRET = vars.tok }
}
agent "other" {
  model       = ${ANTHROPIC_MODEL}
  personality = "A second opinion."
}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "use" {
    objective = "Look at the customers."
    tools     = ${tools}
    agents    = ${agents}
    discovery = false
  }
}
`;
}

/** Distinct handles in the request's tool results, in the order they arrived. */
function handles(req: FakeRequest): string[] {
  const out: string[] = [];
  for (const message of req.canonical.messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool_result') continue;
      for (const c of part.content) if (c.type === 'text') for (const m of c.text.matchAll(new RegExp(HANDLE, 'g'))) if (!out.includes(m[0])) out.push(m[0]);
    }
  }
  return out;
}

const lastHandle = (req: FakeRequest): string => HANDLE.exec(lastToolResult(req))![0];
const continueAt = (req: FakeRequest): number => Number(/Continue with offset (\d+)/.exec(lastToolResult(req))![1]);

describe('large tool results', () => {
  let server: FakeModelServer;
  let dir: string;
  let code: number | null;
  let stderr: string;

  beforeAll(async () => {
    const turns = turnScript({
      [commanderOf('use')]: [
        callAgent('worker', 'Fetch the customers.'),
        (req) => toolCall('result_read', { handle: lastHandle(req), path: '$.total' }),
        (req) => callAgent('other', `Read ${handles(req)[0]} and tell me its total.`),
        (req) => taskComplete(`Done: ${lastToolResult(req).slice(0, 80)}`),
      ],
      [workerOf('use')]: [
        toolCall('mcp_big_big_json', {}),
        (req) => toolCall('result_read', { handle: lastHandle(req), path: '$.items', offset: 0 }),
        (req) => toolCall('result_read', { handle: handles(req)[0], path: '$.items', offset: continueAt(req) }),
        (req) => toolCall('result_search', { handle: handles(req)[0], pattern: 'user-4099@' }),
        toolCall('mcp_big_big_text', {}),
        (req) => toolCall('result_search', { handle: lastHandle(req), pattern: 'NEEDLE' }),
        (req) => toolCall('result_read', { handle: handles(req)[1], offset: Number(/offset (\d+)/.exec(lastToolResult(req))![1]), limit: 300 }),
        toolCall('mcp_big_secret_text', {}),
        toolCall('mcp_big_many_images', {}),
        (req) => toolCall('result_read', { handle: lastHandle(req), image: 3 }),
        (req) => ({ text: `The customers are in ${handles(req)[0]}.` }),
      ],
      [agentOf('other')]: [
        (req) => toolCall('result_read', { handle: HANDLE.exec(JSON.stringify(req.canonical.messages[0]))![0] }),
        { text: 'I cannot read it.' },
      ],
    });
    server = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({ 'mission.hcl': projectHcl(server, '[mcp.big.all]', '[agents.other]') });
    const run = await runCli(['run', dir], { cwd: dir, env: { SQUADRON_VAR_tok: SECRET } });
    expect(turns.problems).toEqual([]);
    code = run.code;
    stderr = run.stderr;
  });

  afterAll(async () => {
    await server.close();
  });

  const worker = () => requestsOf(server, workerOf('use'));
  const received = (req: FakeRequest) => latestToolResults(req)[0]!;

  it('completes the run', () => {
    expect(code, stderr).toBe(0);
    expect(worker()).toHaveLength(11);
  });

  it('gives the model a preview of at most 2 KB for a 1 MB JSON result, with its shape and handle', () => {
    const preview = resultText(received(worker()[1]!));
    expect(Buffer.byteLength(preview, 'utf8')).toBeLessThanOrEqual(2048);
    expect(preview).toMatch(/^\[stored result res_[0-9a-f]{16}\]/);
    expect(preview).toContain('It is JSON');
    expect(preview).toContain('4,100 items');
    expect(preview).toContain('"total":4100');
    expect(preview).toContain('"name":"user-0"');
    expect(preview).toContain('result_read {"handle":');
    expect(preview).toContain('"path":"$.items"');
  });

  it('shows the read tools, last, from the first stored result on', () => {
    expect(toolNames(worker()[0])).not.toContain('result_read');
    expect(toolNames(worker()[1]).slice(-2)).toEqual(['result_read', 'result_search']);
    expect(toolNames(worker()[10]).slice(-2)).toEqual(['result_read', 'result_search']);
  });

  it('pages through the array, page after page, within the limit', () => {
    const first = resultText(received(worker()[2]!));
    expect(first).toMatch(/^Items 0–\d+ of 4,100 in \$\.items\. Continue with offset \d+\./);
    expect(first).toContain('"id":0,');
    expect(Buffer.byteLength(first, 'utf8')).toBeLessThanOrEqual(48_000);
    const next = Number(/Continue with offset (\d+)/.exec(first)![1]);
    expect(next).toBeGreaterThan(100);
    const second = resultText(received(worker()[3]!));
    expect(second.startsWith(`Items ${next.toLocaleString('en-US')}–`)).toBe(true);
    expect(second).toContain(`"id":${next},`);
    expect(second).not.toContain(`"id":${next - 1},`);
  });

  it('finds a value by search, with its JSON path', () => {
    expect(resultText(received(worker()[4]!))).toContain('$.items[4099].email = "user-4099@example.com"');
  });

  it('previews a 1 MB text by head and tail, then finds and reads a line of it', () => {
    const preview = resultText(received(worker()[5]!));
    expect(Buffer.byteLength(preview, 'utf8')).toBeLessThanOrEqual(2048);
    expect(preview).toContain('It is text');
    expect(preview).toContain('in 13,000 lines');
    expect(preview).toContain('line 000001 status=ok');
    expect(preview).toContain('line 013000 status=ok');
    expect(resultText(received(worker()[6]!))).toMatch(/^1 match in res_[0-9a-f]{16}:\nline 7777, offset \d+: .*NEEDLE-4242/);
    const page = resultText(received(worker()[7]!));
    expect(page).toContain('(from line 7,777)');
    expect(page).toContain('line 007777 status=ok');
    expect(page).toContain('NEEDLE-4242');
  });

  it('stores a secret in a result redacted, and never at rest', () => {
    const db = openRunDb(dir);
    try {
      const rows = db.prepare('SELECT payload FROM stored_results WHERE payload IS NOT NULL').all() as { payload: string }[];
      // The server echoes the secret its env was given: the result is masked of it before anything
      // (the model, the store) sees it, so the store keeps the placeholder as literal text.
      expect(rows.some((r) => r.payload.includes('token=[REDACTED::vars.tok]'))).toBe(true);
    } finally {
      db.close();
    }
    const files = [join(dir, '.squadron', 'squadron.db'), join(dir, '.squadron', 'squadron.db-wal')].filter((f) => existsSync(f));
    for (const file of files) expect(readFileSync(file).includes(Buffer.from(TAIL)), `${file} holds the secret`).toBe(false);
  });

  it('notes images in the preview and returns one when asked', () => {
    const preview = resultText(received(worker()[9]!));
    expect(preview).toContain('[image 12: image/png');
    expect(received(worker()[10]!).content).toEqual([{ type: 'image', mediaType: 'image/png', data: expect.any(String) }]);
  });

  it('stores each payload once, and lets the commander read a handle its agent passed up', () => {
    const commander = requestsOf(server, commanderOf('use'));
    expect(toolNames(commander[0])).not.toContain('result_read');
    expect(toolNames(commander[1]).slice(-2)).toEqual(['result_read', 'result_search']);
    const total = received(commander[2]!);
    expect(total.isError).toBe(false);
    expect(resultText(total)).toBe('4100');
    const db = openRunDb(dir);
    try {
      const stored = db.prepare('SELECT COUNT(*) FROM stored_results WHERE payload IS NOT NULL').pluck().get();
      expect(stored).toBe(4);
      const shared = db.prepare("SELECT COUNT(*) FROM stored_results s JOIN sessions x ON x.id = s.session_id WHERE x.agent = 'commander' AND s.payload IS NULL").pluck().get();
      expect(shared).toBe(1);
    } finally {
      db.close();
    }
  });

  it('refuses a handle to a session that never received it', () => {
    const other = requestsOf(server, agentOf('other'));
    const answer = received(other[1]!);
    expect(answer.isError).toBe(true);
    expect(resultText(answer)).toMatch(/^There is no stored result res_[0-9a-f]{16} for you/);
  });
});

describe('a stored result across kill -9 and resume', () => {
  it('rebuilds the same request and still reads the handle', async () => {
    let child: ChildProcess | undefined;
    let killed = false;
    const turns = turnScript({
      [commanderOf('use')]: [callAgent('worker', 'Fetch the log.'), (req) => taskComplete(lastToolResult(req).slice(0, 80))],
      [workerOf('use')]: [
        toolCall('mcp_big_big_text', {}),
        (req) => {
          // The request that carries the preview: the process dies while it is in flight.
          if (!killed) {
            killed = true;
            child?.kill('SIGKILL');
          }
          return toolCall('result_read', { handle: lastHandle(req), offset: 0, limit: 120 });
        },
        (req) => ({ text: lastToolResult(req) }),
      ],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({ 'mission.hcl': projectHcl(server, '[mcp.big.big_text]', '[]') });
      const env = { SQUADRON_VAR_tok: SECRET };
      const first = await runCli(['run', dir], { cwd: dir, env, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      expect(runId, first.stdout).toBeDefined();
      const resumed = await runCli(['resume', runId!], { cwd: dir, env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);

      const worker = requestsOf(server, workerOf('use'));
      expect(worker).toHaveLength(4);
      // Before the crash and after the resume: the same bytes.
      expect(JSON.stringify(worker[2]!.body)).toBe(JSON.stringify(worker[1]!.body));
      const page = resultText(latestToolResults(worker[3]!)[0]);
      expect(page).toMatch(/^Characters 0–120 of [\d,]+ \(from line 1\)\. Continue with offset 120\./);
      expect(page).toContain('line 000001 status=ok');
    } finally {
      await server.close();
    }
  });
});

describe('tool_response through the CLI', () => {
  const hcl = (commanderLimit: string) => `model "fake" {
  provider = "anthropic"
  api_key  = "k"
}
agent "other" {
  model       = ${ANTHROPIC_MODEL}
  personality = "A second opinion."
  tool_response {
    max_tokens = 8000
  }
}
mission "m" {
  commander {
    model = ${ANTHROPIC_MODEL}
${commanderLimit}
  }
  agent_defaults {
    tool_response {
      max_tokens = 24000
    }
  }
  task "use" {
    objective = "Look at the customers."
    tools     = [builtins.utils.current_time]
    agents    = [agents.other]
  }
}
`;

  it('plan shows each session limit and where it comes from', async () => {
    const dir = writeProject({ 'mission.hcl': hcl('') });
    const json = await runCli(['plan', dir, '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const task = (JSON.parse(json.stdout) as { tasks: { commander: { tool_response: unknown }; agents: { name: string; tool_response: unknown }[] }[] }).tasks[0]!;
    expect(task.commander.tool_response).toEqual({ max_tokens: 16000, via: 'default' });
    expect(task.agents.map((a) => [a.name, a.tool_response])).toEqual([
      ['worker', { max_tokens: 24000, via: 'agent_defaults' }],
      ['other', { max_tokens: 8000, via: 'agent' }],
    ]);
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.stdout).toContain('tool results over 16,000 tokens are stored and previewed (default)');
    expect(text.stdout).toContain('tool results over 24,000 tokens are stored and previewed (agent_defaults)');
    expect(text.stdout).toContain("tool results over 8,000 tokens are stored and previewed (agent's tool_response)");
  });

  it('validate refuses an out-of-range limit at its position, with a hint', async () => {
    const dir = writeProject({ 'mission.hcl': hcl('    tool_response {\n      max_tokens = 50\n    }') });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    const out = result.stdout + result.stderr;
    expect(out).toContain('mission.hcl:16:20: error[SCH013]: ');
    expect(out).toContain('max_tokens must be a whole number from 1,000 to 1,000,000, got 50');
    expect(out).toContain('the default is 16,000');
  });
});

describe("an agent's answer over the commander's limit", () => {
  it('reaches the commander as a preview it can read back', async () => {
    const answer = `${'All good. '.repeat(600)}THE END`;
    const turns = turnScript({
      [commanderOf('use')]: [
        callAgent('worker', 'Report at length.'),
        (req) => toolCall('result_read', { handle: lastHandle(req), path: '$.answer', offset: answer.length - 20 }),
        (req) => taskComplete(lastToolResult(req).slice(-30)),
      ],
      [workerOf('use')]: [{ text: answer }],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander {
    model = ${ANTHROPIC_MODEL}
    tool_response {
      max_tokens = 1000
    }
  }
  task "use" {
    objective = "Report."
    tools     = [builtins.utils.current_time]
  }
}
`,
      });
      const run = await runCli(['run', dir], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const commander = requestsOf(server, commanderOf('use'));
      const preview = resultText(latestToolResults(commander[1]!)[0]);
      expect(preview).toMatch(/^\[stored result res_[0-9a-f]{16}\] .*the limit for one result is 1,000\)/);
      expect(preview).toContain('It is JSON');
      expect(preview).toContain('"status":"answered"');
      expect(preview).not.toContain('THE END');
      const tail = resultText(latestToolResults(commander[2]!)[0]);
      expect(tail).toContain(`$.answer is a string of ${answer.length.toLocaleString('en-US')} characters.`);
      expect(tail.endsWith('All good. THE END')).toBe(true);
    } finally {
      await server.close();
    }
  });
});
