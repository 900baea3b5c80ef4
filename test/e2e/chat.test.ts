// End-to-end: `squadron chat` through the built CLI, against the fake model server over HTTP. Lines
// piped to stdin are the person's messages; the chat is stored as a run (mission `chat:<agent>`), so
// `--resume` carries every earlier turn to the model, also after the process was killed mid-reply.

import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, LOCAL_HTTP, openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { MCP_STDIO_SERVER_PATH } from '../support/mcpStdioServer.js';
import { spawnCliInPty } from '../support/ptyCli.js';
import { lastToolResult, toolCall } from '../support/turnScript.js';

afterAll(removeProjects);

const SECRET = 'tok-93b1f0c7e2';

function project(server: FakeModelServer, assistantExtra = ''): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(server)}${LOCAL_HTTP}
variable "token" {
  secret = true
}

agent "assistant" {
  model       = ${ANTHROPIC_MODEL}
  personality = "A weather helper."
  tools       = [builtins.http.get]
  ${assistantExtra}
}

agent "critic" {
  model       = ${ANTHROPIC_MODEL}
  personality = "Finds faults."
}

mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    objective = "Say hi."
    agents    = [agents.assistant]
  }
}
`,
  });
}

/** Text of every user message of a request, in order (tool results left out). */
function userTexts(req: FakeRequest): string[] {
  return req.canonical.messages.filter((m) => m.role === 'user').map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')).filter((t) => t !== '');
}

function assistantTexts(req: FakeRequest): string[] {
  return req.canonical.messages.filter((m) => m.role === 'assistant').map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')).filter((t) => t !== '');
}

/** The newest user text of a request (the person's latest message). */
function lastUserText(req: FakeRequest): string {
  return userTexts(req).at(-1) ?? '';
}

/** Replies chosen by what the person last said, so a request sent again after a crash gets the same one. */
function chatModel(weatherUrl: string): (req: FakeRequest) => FakeReply {
  return (req) => {
    const last = req.canonical.messages.at(-1)!;
    if (last.parts.some((p) => p.type === 'tool_result')) return { text: `The report says: ${lastToolResult(req)}` };
    const said = lastUserText(req);
    if (said.includes('weather')) return toolCall('builtins_http_get', { url: `${weatherUrl}/today` });
    if (said.includes('token')) return { text: `Your token is ${SECRET}.` };
    if (said.includes('escape')) return { text: 'Here\u001b]0;pwned\u0007 it is\u001b[2J, cleared\rover' };
    return { text: `You said: ${said}` };
  };
}

/** A weather service answering `report` to every request, and counting them. */
async function weatherServer(report = 'sunny and 21 degrees'): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const http = createServer((_req, res) => {
    hits += 1;
    res.end(report);
  });
  const url = await listenLocal(http);
  return { url, hits: () => hits, close: () => closeServer(http) };
}

function chatRun(dir: string): { id: string; mission: string; status: string } {
  const db = openRunDb(dir);
  try {
    return db.prepare("SELECT id, mission, status FROM runs WHERE mission LIKE 'chat:%'").get() as { id: string; mission: string; status: string };
  } finally {
    db.close();
  }
}

const TIMEOUT = 180_000;

describe('squadron chat', () => {
  it(
    'holds a two-turn chat whose tool result reaches the model, masks secrets, and stores it as a run',
    async () => {
      const weather = await weatherServer();
      try {
        await withFakeModelServer(chatModel(weather.url), async (server) => {
          const dir = project(server);
          const r = await runCli(['chat', 'assistant', dir, '--var', `token=${SECRET}`], { cwd: dir, stdin: 'What is the weather today?\nWhat is my token?\n' });
          expect(r.code, r.stderr).toBe(0);
          expect(server.errors).toEqual([]);
          // Turn 1: the tool call, then its result read by the model; turn 2 carries turn 1.
          expect(server.requests).toHaveLength(3);
          expect(lastToolResult(server.requests[1]!)).toContain('sunny and 21 degrees');
          expect(userTexts(server.requests[2]!)).toEqual(['What is the weather today?', 'What is my token?']);
          expect(assistantTexts(server.requests[2]!)).toHaveLength(1);
          expect(assistantTexts(server.requests[2]!)[0]).toMatch(/^The report says: HTTP 200[\s\S]*sunny and 21 degrees$/);
          // The chat's prompt, not a mission agent's: a person is talking, and the agent's tools are offered.
          expect(server.requests[0]!.canonical.system).toContain('chatting interactively with a person');
          expect(server.requests[0]!.canonical.system).toContain('A weather helper.');
          expect(server.requests[0]!.canonical.tools.map((t) => t.name)).toContain('builtins_http_get');
          expect(r.stdout).toContain('sunny and 21 degrees');
          // The reply quoting the secret is masked on the terminal, as all output is.
          expect(r.stdout).toContain('Your token is');
          expect(r.stdout + r.stderr).not.toContain(SECRET);
          expect(r.stderr).toMatch(/chat run_[a-z0-9]+ with agent "assistant"/);
          expect(r.stderr).toContain('✓ builtins.http.get');
          expect(r.stderr).toMatch(/saved \(\d+ tokens, \$\d+\.\d{4} in all\); continue it with: squadron chat --resume run_/);

          const run = chatRun(dir);
          expect(run).toMatchObject({ mission: 'chat:assistant', status: 'completed' });
          const db = openRunDb(dir);
          try {
            const calls = db.prepare('SELECT tool_ref, status FROM tool_calls').all();
            expect(calls).toEqual([{ tool_ref: 'builtins.http.get', status: 'completed' }]);
            const stored = db.prepare('SELECT parts_json FROM messages ORDER BY id').all() as { parts_json: string }[];
            expect(stored).toHaveLength(6);
            // Secrets are never stored: the answer that quoted one is stored redacted.
            expect(stored.map((m) => m.parts_json).join('')).not.toContain(SECRET);
          } finally {
            db.close();
          }
          // The chat reads like any run: inspect shows its transcript.
          const inspect = await runCli(['inspect', run.id, '--transcript'], { cwd: dir });
          expect(inspect.code, inspect.stderr).toBe(0);
          expect(inspect.stdout).toContain('What is the weather today?');
          expect(inspect.stdout).toContain('The report says: HTTP 200');
        });
      } finally {
        await weather.close();
      }
    },
    TIMEOUT,
  );

  it(
    '--resume carries the earlier turns to the model and continues the same stored chat',
    async () => {
      await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
        const dir = project(server);
        const first = await runCli(['chat', 'critic', dir], { cwd: dir, stdin: 'Hello there\n' });
        expect(first.code, first.stderr).toBe(0);
        const { id } = chatRun(dir);
        const resumed = await runCli(['chat', '--resume', id, '--json'], { cwd: dir, stdin: 'Second thought\n/exit\nnever sent\n' });
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(server.requests).toHaveLength(2);
        expect(userTexts(server.requests[1]!)).toEqual(['Hello there', 'Second thought']);
        expect(assistantTexts(server.requests[1]!)).toEqual(['You said: Hello there']);
        // --json: one document per reply, per line.
        const docs = resumed.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(docs).toEqual([{ schema_version: 1, chat_id: id, agent: 'critic', status: 'answer', text: 'You said: Second thought' }]);
        // One chat, one session: the resume added to it.
        const db = openRunDb(dir);
        try {
          expect(db.prepare("SELECT COUNT(*) FROM runs WHERE mission = 'chat:critic'").pluck().get()).toBe(1);
          expect(db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(1);
          expect(db.prepare('SELECT COUNT(*) FROM messages').pluck().get()).toBe(4);
        } finally {
          db.close();
        }
        // A chat is not a mission's run: resume points to chat --resume.
        const wrong = await runCli(['resume', id], { cwd: dir });
        expect(wrong.code).toBe(2);
        expect(wrong.stderr).toContain(`squadron chat --resume ${id}`);
      });
    },
    TIMEOUT,
  );

  it('refuses an unknown agent with the nearest name and no stack trace, and several agents without a terminal', async () => {
    await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
      const dir = project(server);
      const r = await runCli(['chat', 'asistant', dir], { cwd: dir, stdin: 'hi\n' });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('no agent "asistant" in the config. Did you mean "assistant"? (agents: assistant, critic)');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const none = await runCli(['chat', dir], { cwd: dir, stdin: 'hi\n' });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('name the one to chat with');
      expect(server.requests).toHaveLength(0);
    });
  });

  it(
    'keeps what was said when killed mid-reply: --resume finishes the cut reply, then goes on',
    async () => {
      let child: import('node:child_process').ChildProcess | undefined;
      await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
        const dir = project(server);
        // The model is reached for the second message: the process dies while waiting for that reply.
        server.onRequest = (n) => {
          if (n === 2) child?.kill('SIGKILL');
        };
        const killed = await runCli(['chat', 'critic', dir], { cwd: dir, stdin: 'First words\nSecond words\n', onSpawn: (c) => (child = c) });
        expect(killed.signal).toBe('SIGKILL');
        expect(killed.stdout).toContain('You said: First words');
        server.onRequest = undefined;
        const { id, status } = chatRun(dir);
        expect(status).toBe('running');
        const resumed = await runCli(['chat', '--resume', id], { cwd: dir, stdin: 'Third words\n' });
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(resumed.stderr).toContain('finishing the reply that was cut short');
        expect(resumed.stderr).toContain('you: Second words');
        // The stored second message is answered, then the third goes with all that came before.
        const [cut, third] = server.requests.slice(-2);
        expect(userTexts(cut!)).toEqual(['First words', 'Second words']);
        expect(userTexts(third!)).toEqual(['First words', 'Second words', 'Third words']);
        expect(assistantTexts(third!)).toEqual(['You said: First words', 'You said: Second words']);
        expect(resumed.stdout).toContain('You said: Second words');
        expect(resumed.stdout).toContain('You said: Third words');
        expect(chatRun(dir).status).toBe('completed');
      });
    },
    TIMEOUT,
  );

  it(
    'asks for an approval on its own input: a yes runs the call once, a no gives the model the reason and runs nothing',
    async () => {
      const weather = await weatherServer('cloudy');
      try {
        await withFakeModelServer(chatModel(weather.url), async (server) => {
          const dir = project(server, 'approval    = [builtins.http.get]');
          const r = await runCli(['chat', 'assistant', dir], { cwd: dir, stdin: 'What is the weather?\ny\nAnd the weather now?\nn\nnot today\n' });
          expect(r.code, r.stderr).toBe(0);
          expect(weather.hits()).toBe(1);
          expect(r.stderr).toContain('── approval needed');
          expect(r.stderr).toContain('tool builtins.http.get');
          expect(lastToolResult(server.requests[1]!)).toContain('cloudy');
          // The denied call: not run, and the model reads why.
          expect(lastToolResult(server.requests[3]!)).toContain('not today');
          const db = openRunDb(dir);
          try {
            const decided = db.prepare('SELECT status, reason FROM operator_requests ORDER BY created_at').all();
            expect(decided).toEqual([
              { status: 'approved', reason: null },
              { status: 'denied', reason: 'not today' },
            ]);
          } finally {
            db.close();
          }
        });
      } finally {
        await weather.close();
      }
    },
    TIMEOUT,
  );

  it(
    'Ctrl-C cancels the reply under way (a tool call it waits on is closed as not read), and the chat goes on',
    async () => {
      let child: import('node:child_process').ChildProcess | undefined;
      let release = (): void => undefined;
      const hanging = createServer((_req, res) => {
        // The tool call is running: the person presses Ctrl-C.
        child?.kill('SIGINT');
        release = () => res.end('too late');
      });
      const hangingUrl = await listenLocal(hanging);
      try {
        await withFakeModelServer(chatModel(hangingUrl), async (server) => {
          const dir = project(server);
          const r = await runCli(['chat', 'assistant', dir], { cwd: dir, stdin: 'What is the weather?\nNever mind, hello\n', onSpawn: (c) => (child = c) });
          expect(r.code, r.stderr).toBe(0);
          expect(r.stderr).toContain('(reply cancelled)');
          expect(r.stdout).toContain('You said: Never mind, hello');
          expect(server.requests).toHaveLength(2);
          // The cancelled call is answered before the next message, so the conversation stays valid.
          expect(lastToolResult(server.requests[1]!)).toContain('the person cancelled this reply');
          expect(userTexts(server.requests[1]!)).toEqual(['What is the weather?', 'Never mind, hello']);
        });
      } finally {
        release();
        await closeServer(hanging);
      }
    },
    TIMEOUT,
  );

  it(
    'input that ends while a call waits for approval exits 4; approve, then --resume runs the call once and finishes the reply',
    async () => {
      const weather = await weatherServer('windy');
      try {
        await withFakeModelServer(chatModel(weather.url), async (server) => {
          const dir = project(server, 'approval    = [builtins.http.get]');
          const first = await runCli(['chat', 'assistant', dir], { cwd: dir, stdin: 'What is the weather?\n' });
          expect(first.code, first.stderr).toBe(4);
          expect(first.stderr).toContain('waits for approval');
          expect(weather.hits()).toBe(0);
          const { id } = chatRun(dir);
          const approved = await runCli(['approve', id], { cwd: dir });
          expect(approved.code, approved.stderr).toBe(0);
          const resumed = await runCli(['chat', '--resume', id], { cwd: dir, stdin: '' });
          expect(resumed.code, resumed.stderr).toBe(0);
          expect(weather.hits()).toBe(1);
          expect(resumed.stdout).toContain('The report says: HTTP 200');
          expect(lastToolResult(server.requests.at(-1)!)).toContain('windy');
        });
      } finally {
        await weather.close();
      }
    },
    TIMEOUT,
  );

  it(
    "respects the agent's max_turns on each message: the reply fails, the chat goes on",
    async () => {
      await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
        const dir = project(server, 'max_turns   = 1');
        // The weather question makes the model call a tool, which needs a second turn.
        const r = await runCli(['chat', 'assistant', dir], { cwd: dir, stdin: 'What is the weather?\nHello\n' });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('turn limit reached (1 model turns on one instruction)');
        expect(r.stdout).toContain('You said: Hello');
      });
    },
    TIMEOUT,
  );

  it(
    'on a terminal: asks which agent when the config has several, prompts, and ends with Ctrl-C twice or Ctrl-D',
    async () => {
      await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
        const dir = project(server);
        const pty = spawnCliInPty(['chat', dir], { cwd: dir });
        let at = await pty.waitFor('chat with (number or name): ');
        expect(pty.screen()).toContain('1) assistant');
        expect(pty.screen()).toContain('2) critic');
        pty.type('2');
        at = await pty.waitFor('with agent "critic"', at);
        at = await pty.waitFor('> ', at);
        pty.type('Hello from a terminal');
        at = await pty.waitFor('You said: Hello from a terminal', at);
        at = await pty.waitFor('> ', at);
        pty.type('\u0003');
        at = await pty.waitFor('press Ctrl-C again', at);
        pty.type('\u0004');
        await pty.waitFor('continue it with: squadron chat --resume run_', at);
        expect(await pty.exited).toBe(0);
        expect(userTexts(server.requests[0]!)).toEqual(['Hello from a terminal']);
      });
    },
    TIMEOUT,
  );

  it('chats with the only agent of a config of agents alone, without the "no mission" warning', async () => {
    await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
      const dir = writeProject({ 'agents.hcl': `${fakeModelBlock(server)}agent "solo" {\n  model       = ${ANTHROPIC_MODEL}\n  personality = "Alone."\n}\n` });
      const r = await runCli(['chat'], { cwd: dir, stdin: 'Anyone there?\n' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('with agent "solo"');
      expect(r.stderr).not.toContain('GRA012');
      expect(r.stdout).toContain('You said: Anyone there?');
    });
  });

  it('prints a hostile reply through the terminal sanitiser: no title, clear-screen or carriage return reaches the terminal', async () => {
    await withFakeModelServer(chatModel('http://127.0.0.1:9'), async (server) => {
      const dir = project(server);
      const r = await runCli(['chat', 'critic', dir], { cwd: dir, stdin: 'escape sequences, please\n' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Here it is, clearedover');
      expect(r.stdout).not.toMatch(/[\u001b\r\u0007]/);
    });
  });

  it(
    "builds the agent as a mission does: a toolset's tools, an MCP server's tools (called over stdio) and its skill",
    async () => {
      const model = (req: FakeRequest): FakeReply => {
        const last = req.canonical.messages.at(-1)!;
        if (last.parts.some((p) => p.type === 'tool_result')) return { text: `Done: ${lastToolResult(req)}` };
        return toolCall('mcp_local_weather', { city: 'Oslo' });
      };
      await withFakeModelServer(model, async (server) => {
        const dir = writeProject({
          'main.hcl': `${fakeModelBlock(server)}
mcp "local" {
  command = "${process.execPath}"
  args    = ["${MCP_STDIO_SERVER_PATH}"]
}

toolset "clock" {
  tools = [builtins.utils.current_time]
}

skill "forecasting" {
  description  = "How to read a forecast"
  instructions = "Give the temperature first."
}

agent "forecaster" {
  model       = ${ANTHROPIC_MODEL}
  personality = "Reads forecasts."
  tools       = [toolsets.clock, mcp.local.weather]
  skills      = [skills.forecasting]
}
`,
        });
        const r = await runCli(['chat', 'forecaster', dir], { cwd: dir, stdin: 'Weather in Oslo?\n' });
        expect(r.code, r.stderr).toBe(0);
        const first = server.requests[0]!.canonical;
        expect(first.tools.map((t) => t.name).sort()).toEqual(expect.arrayContaining(['builtins_utils_current_time', 'mcp_local_weather', 'load_skill']));
        expect(first.system).toContain('forecasting');
        expect(lastToolResult(server.requests[1]!)).toContain('21.5');
        expect(r.stderr).toContain('✓ mcp.local.weather');
        expect(r.stdout).toContain('Done:');
      });
    },
    TIMEOUT,
  );
});
