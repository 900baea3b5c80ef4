// Context cost of large tool results: how many bytes a 1 MB JSON result and a 1 MB text result add
// to the worker's next model request (goal ≤ 2 KB), with results stored by handle at the default
// limit (tool_response max_tokens = 16,000) and, for contrast, with a limit so high that they pass
// whole. Runs the real CLI (`node dist/cli/main.cjs run`) against the fake model server (real wire
// format over 127.0.0.1) and the stdio MCP server of test/support/mcpBigServer.mjs; the figures are
// read from the request bodies the fake server received.
//
//   "added"        = bytes of the next request body − bytes of the request before it, less the
//                    assistant turn that made the call (what the result itself costs on the wire);
//   "tool_result"  = bytes of the tool_result block alone, as JSON in the request body;
//   "read tools"   = bytes of the result_read and result_search definitions, sent from the first
//                    stored result of a session on (once per session, not per result).
//
// Then a long session: a worker that reads 300 pages of 20 KB each (builtins.http.get against a
// local server), once without compaction (token_limit at its maximum and a window far above the
// session), once with the default compaction of a 200,000-token window (context_window on the
// model block) and once with token_limit = 30,000. Per run: the request bytes at some turns, the
// largest request in bytes and in tokens against the limit in force (every request is checked
// before it is sent), and the resend cost — the input tokens of all the worker's requests summed
// (bytes / 4, as the fake model reports them: mostly cache reads).
//
// Prints figures only; nothing is asserted. Run after building:
//   npm run build --silent && node bench/context.mjs [--api anthropic|openai] [--only results|long] [--turns N]

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const mcpServer = join(repo, 'test', 'support', 'mcpBigServer.mjs');
const args = process.argv.slice(2);
const API = args.includes('--api') ? args[args.indexOf('--api') + 1] : 'anthropic';
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const TURNS = args.includes('--turns') ? Number(args[args.indexOf('--turns') + 1]) : 300;
const MODEL = API === 'anthropic' ? 'models.fake.claude_sonnet_4_6' : 'models.fake.gpt_4_1';

const TOOLS = [
  ['1 MB JSON (MCP structured content)', 'mcp_big_big_json'],
  ['1 MB text (MCP text)', 'mcp_big_big_text'],
];

function hcl(server, limit) {
  const baseUrl = API === 'anthropic' ? server.anthropicBaseURL : server.openaiBaseURL;
  const toolResponse = limit === undefined ? '' : `    tool_response {\n      max_tokens = ${limit}\n    }\n`;
  return `model "fake" {
  provider = "${API}"
  base_url = "${baseUrl}"
  api_key  = "k"
}
variable "tok" {
  default = ""
}
mcp "big" {
  command = "${process.execPath}"
  args    = ["${mcpServer}"]
}
mission "m" {
  commander { model = ${MODEL} }
  agent_defaults {
${toolResponse}  }
  task "t" {
    objective = "Fetch."
    tools     = [mcp.big.big_json, mcp.big.big_text]
    discovery = false
  }
}
`;
}

function reply(request, tool) {
  const system = request.canonical.system;
  const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
  if (system.includes('commander of task')) {
    return turn === 0 ? { toolCalls: [{ name: 'call_agent', input: { name: 'worker', task: 'Fetch it.' } }] } : { toolCalls: [{ name: 'task_complete', input: { summary: 'done' } }] };
  }
  return turn === 0 ? { toolCalls: [{ name: tool, input: {} }] } : { text: 'Fetched.' };
}

function run(dir) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [cli, 'run', dir], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`run exited ${code}: ${stderr}`))));
  });
}

const bytes = (value) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The worker's two requests: before the tool call, and with its result. */
async function measure(tool, limit) {
  let current;
  const server = await startFakeModelServer({ respond: (req) => reply(req, current) });
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-context-'));
  try {
    current = tool;
    writeFileSync(join(dir, 'main.hcl'), hcl(server, limit));
    await run(dir);
    const worker = server.requests.filter((r) => r.canonical.system.includes('worker agent of task'));
    const [before, after] = worker;
    const messages = API === 'anthropic' ? after.body.messages : after.body.messages ?? after.body.input;
    const assistant = messages[messages.length - 2];
    const last = messages[messages.length - 1];
    const added = bytes(after.body) - bytes(before.body) - bytes(assistant);
    const tools = (body) => (body.tools ?? []).filter((t) => /^result_/.test(t.name ?? t.function?.name ?? ''));
    return { added, toolResult: bytes(last), readTools: tools(after.body).length > 0 ? bytes(tools(after.body)) : 0, total: bytes(after.body) };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (n) => n.toLocaleString('en-US').padStart(12);
if (ONLY !== 'long') {
console.log(`context cost of one large tool result (${API} wire format; bytes of JSON in the request body)`);
console.log(`${'result'.padEnd(38)} ${'limit'.padEnd(26)} ${'added'.padStart(12)} ${'tool_result'.padStart(12)} ${'read tools'.padStart(12)} ${'request'.padStart(12)}`);
for (const [label, tool] of TOOLS) {
  for (const [name, limit] of [['16,000 (default)', undefined], ['1,000,000 (passes whole)', 1_000_000]]) {
    const m = await measure(tool, limit);
    console.log(`${label.padEnd(38)} ${name.padEnd(26)} ${fmt(m.added)} ${fmt(m.toolResult)} ${fmt(m.readTools)} ${fmt(m.total)}`);
  }
}
}

// ---- A long session: request size per turn with and without compaction.

const PAGE_BYTES = 20_000;

function longHcl(server, compaction, window) {
  const baseUrl = API === 'anthropic' ? server.anthropicBaseURL : server.openaiBaseURL;
  return `model "fake" {
  provider       = "${API}"
  base_url       = "${baseUrl}"
  api_key        = "k"
  context_window = ${window}
}
mission "m" {
  commander { model = ${MODEL} }
  agent_defaults {
    max_turns = ${TURNS + 5}
${compaction}
  }
  task "t" {
    objective = "Read."
    tools     = [builtins.http.get]
    discovery = false
  }
}
`;
}

function lastPage(request) {
  for (let i = request.canonical.messages.length - 1; i >= 0; i--) {
    for (const part of request.canonical.messages[i].parts) {
      if (part.type !== 'tool_result') continue;
      const text = part.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const m = /^page (\d+)\|/m.exec(text);
      if (m) return Number(m[1]);
    }
  }
  return 0;
}

function longReply(request, pagesUrl) {
  const system = request.canonical.system;
  const tokens = Math.ceil(bytes(request.body) / 4);
  const usage = { inputTokens: 200, cacheReadTokens: Math.max(tokens - 200, 0), cacheWriteTokens: 0, outputTokens: 30 };
  if (system.includes('commander of task')) {
    const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
    return turn === 0 ? { toolCalls: [{ name: 'call_agent', input: { name: 'worker', task: `Read pages 1 to ${TURNS}.` } }] } : { toolCalls: [{ name: 'task_complete', input: { summary: 'done' } }] };
  }
  const page = lastPage(request);
  if (page >= TURNS) return { text: `Read ${page} pages.`, usage };
  return { toolCalls: [{ name: 'builtins_http_get', input: { url: `${pagesUrl}/page/${page + 1}` } }], usage };
}

async function measureLong(compaction, window) {
  const pages = createServer((req, res) => {
    const n = Number(/\/page\/(\d+)/.exec(req.url ?? '')?.[1]);
    const head = `page ${n}|`;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(head + `line of page ${n}. `.repeat(Math.ceil(PAGE_BYTES / 16)).slice(0, PAGE_BYTES - head.length));
  });
  await new Promise((ok) => pages.listen(0, '127.0.0.1', ok));
  const pagesUrl = `http://127.0.0.1:${pages.address().port}`;
  const sizes = [];
  const server = await startFakeModelServer({
    respond: (req) => {
      if (req.canonical.system.includes('worker agent of task')) sizes.push(bytes(req.body));
      return longReply(req, pagesUrl);
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-long-'));
  try {
    writeFileSync(join(dir, 'main.hcl'), longHcl(server, compaction, window));
    await run(dir);
    return sizes;
  } finally {
    await server.close();
    pages.close();
    pages.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (ONLY !== 'results') {
  // [label, compaction block, the model block's context_window, the token limit in force]. Without
  // compaction the window is set far above the session so that nothing cuts it.
  const runs = [
    ['no compaction', '    compaction {\n      token_limit = 10000000\n    }', 100_000_000, 10_000_000],
    ['default (window 200,000)', '', 200_000, Math.floor((200_000 - 8_192) * 0.8)],
    ['token_limit = 30,000', '    compaction {\n      token_limit = 30000\n    }', 200_000, 30_000],
  ];
  const marks = [...new Set([1, 10, 50, 100, 150, 200, 250, 300, TURNS])].filter((t) => t <= TURNS).sort((a, b) => a - b);
  console.log(`\na ${TURNS}-turn worker, 20 KB per tool result (${API} wire format; request body bytes at turn N)`);
  console.log(`${'compaction'.padEnd(26)} ${marks.map((t) => `turn ${t}`.padStart(11)).join(' ')} ${'largest'.padStart(12)} ${'largest tok'.padStart(12)} ${'limit'.padStart(12)} ${'input tokens'.padStart(14)}`);
  for (const [label, block, window, limit] of runs) {
    const started = performance.now();
    const sizes = await measureLong(block, window);
    // Tokens as the fake model reports them (body bytes / 4), the figure the limit is checked against.
    const total = sizes.reduce((a, b) => a + Math.ceil(b / 4), 0);
    const at = marks.map((t) => (sizes[t - 1] === undefined ? '—' : sizes[t - 1].toLocaleString('en-US')).padStart(11)).join(' ');
    const largestTokens = Math.ceil(Math.max(...sizes) / 4);
    console.log(`${label.padEnd(26)} ${at} ${fmt(Math.max(...sizes))} ${fmt(largestTokens)} ${fmt(limit)} ${total.toLocaleString('en-US').padStart(14)}   (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
}
