// End-to-end: long sessions cut down through the CLI (docs/concepts/context.md). A worker reads 24
// pages of 20 KB each over HTTP; the fake model reports most of each request's input as cache reads,
// so compaction fires only because the check counts cached tokens too. Every request is sized before
// it is sent: none the fake server received passes token_limit (fewer turns are kept when the kept
// ones alone would), tool pairs stay whole, the retained turns are verbatim and the task repeated;
// pruning caps the turns a request holds; after kill -9 right after a compaction, resume sends the
// very request the killed process had sent; a summary call killed in flight is asked once more and
// one stored with its cut never again; a model turn the window cannot hold is sent with its result as
// a stored preview, else the session fails naming the sizes; inspect shows where the session was cut.

import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../runtime/providers/types.js';
import { runCli } from '../support/cli.js';
import { LOCAL_HTTP, agentOf, commanderOf, fakeModelBlock, openRunDb, removeProjects, requestsOf, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const PAGES = 24;
const PAGE_BYTES = 20_000;
const TOKEN_LIMIT = 30_000;
const RETENTION = 3;
const TASK = `Read pages 1 to ${PAGES} and report the last line.`;

let pages: Server;
let pagesUrl: string;

beforeAll(async () => {
  pages = createServer((req, res) => {
    const n = Number(/\/page\/(\d+)/.exec(req.url ?? '')?.[1]);
    const head = `page ${n}|`;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(head + `line of page ${n}. `.repeat(Math.ceil(PAGE_BYTES / 16)).slice(0, PAGE_BYTES - head.length));
  });
  pagesUrl = await listenLocal(pages);
});

afterAll(async () => {
  await closeServer(pages);
});

function projectHcl(server: FakeModelServer, context: string): string {
  return `${LOCAL_HTTP}${fakeModelBlock(server)}
mission "m" {
  commander { model = models.fake.claude_sonnet_4_6 }
  agent_defaults {
${context}
  }
  task "read" {
    objective = "Read the pages."
    tools     = [builtins.http.get]
    discovery = false
  }
}
`;
}

const COMPACTION = `    compaction {
      token_limit    = ${TOKEN_LIMIT}
      turn_retention = ${RETENTION}
    }`;

/** The page the request's newest tool result holds (0 before the first). */
function lastPage(req: FakeRequest): number {
  return Number(/^page (\d+)\|/m.exec(lastToolResult(req))?.[1] ?? 0);
}

/** The worker reads the next page until the last, then answers; most of the input is reported as cached. */
/** The input tokens the fake model reports for a request (cached ones included): its body's bytes / 4. */
const reportedTokens = (req: FakeRequest): number => Math.ceil(JSON.stringify(req.body).length / 4);

function workerReply(req: FakeRequest): FakeReply {
  const tokens = reportedTokens(req);
  const usage = { inputTokens: 200, cacheReadTokens: Math.max(tokens - 200, 0), cacheWriteTokens: 0 };
  const page = lastPage(req);
  if (page >= PAGES) return { text: `Last line read from page ${page}.`, usage };
  return { ...toolCall('builtins_http_get', { url: `${pagesUrl}/page/${page + 1}` }), usage };
}

const script = (onWorker: (req: FakeRequest) => void = () => {}) =>
  turnScript({
    [commanderOf('read')]: [callAgent('worker', TASK), (req) => taskComplete(lastToolResult(req).slice(0, 80))],
    // The worker's turn is not its assistant-message count (compaction drops those), so one reply fits all.
    [workerOf('read')]: Array.from({ length: PAGES + 2 }, () => (req: FakeRequest) => {
      onWorker(req);
      return workerReply(req);
    }),
  });

/** A request's tool pairs: every tool_result answers a call of the message before, every call is answered next. */
function expectPairsWhole(messages: Message[]): void {
  expect(messages[0]?.role).toBe('user');
  messages.forEach((m, i) => {
    if (i > 0) expect(m.role).not.toBe(messages[i - 1]!.role);
    const results = m.parts.flatMap((p) => (p.type === 'tool_result' ? [p.toolUseId] : []));
    const calls = (messages[i - 1]?.parts ?? []).flatMap((p) => (p.type === 'tool_use' ? [p.id] : []));
    for (const id of results) expect(calls).toContain(id);
    const own = m.parts.flatMap((p) => (p.type === 'tool_use' ? [p.id] : []));
    const next = messages[i + 1];
    if (own.length > 0 && next) expect(next.parts.flatMap((p) => (p.type === 'tool_result' ? [p.toolUseId] : []))).toEqual(own);
  });
}

const headText = (req: FakeRequest): string => {
  const first = req.canonical.messages[0]!.parts[0];
  return first?.type === 'text' ? first.text : '';
};
const compacted = (req: FakeRequest): boolean => headText(req).startsWith('<COMPACTED_CONTEXT>');
const messageBytes = (req: FakeRequest): number => JSON.stringify(req.canonical.messages).length;

describe('compaction of a long session', () => {
  let server: FakeModelServer;
  let dir: string;
  let worker: FakeRequest[];
  let progress = '';

  beforeAll(async () => {
    const turns = script();
    server = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({ 'mission.hcl': projectHcl(server, COMPACTION) });
    const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(turns.problems).toEqual([]);
    worker = requestsOf(server, workerOf('read'));
    progress = run.stderr;
  }, 240_000);

  afterAll(async () => {
    await server.close();
  });

  it('keeps every request under the limit (checked before it is sent), where the whole session would grow past it', () => {
    expect(worker).toHaveLength(PAGES + 1);
    // The input tokens the fake model reports for each request: none passes token_limit.
    const largest = Math.max(...worker.map(reportedTokens));
    expect(largest).toBeLessThanOrEqual(TOKEN_LIMIT);
    expect(largest).toBeGreaterThan(TOKEN_LIMIT / 2);
    const biggest = Math.max(...worker.map(messageBytes));
    expect(PAGES * PAGE_BYTES).toBeGreaterThan(biggest * 2);
    expect(worker.filter(compacted).length).toBeGreaterThan(PAGES / 2);
  });

  it('keeps every tool pair whole and the retained turns verbatim after the head', () => {
    for (const req of worker) expectPairsWhole(req.canonical.messages);
    const db = openRunDb(dir);
    try {
      const views = db.prepare("SELECT v.keep_from, v.input_tokens, v.kind FROM context_views v JOIN sessions s ON s.id = v.session_id WHERE s.agent = 'worker' ORDER BY v.seq").all() as { keep_from: number; input_tokens: number; kind: string }[];
      expect(views.length).toBeGreaterThan(2);
      for (const v of views) {
        expect(v.kind).toBe('compaction');
        // Counted with the cached tokens: the uncached part alone (200) never reaches the limit.
        expect(v.input_tokens).toBeGreaterThan(TOKEN_LIMIT);
      }
      const stored = db
        .prepare("SELECT m.seq, m.role, m.parts_json FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.agent = 'worker' ORDER BY m.seq")
        .all() as { seq: number; role: string; parts_json: string }[];
      // The request right after the first compaction: the head, then the stored messages from keep_from on, unchanged.
      const after = worker.find(compacted)!;
      const keepFrom = views[0]!.keep_from;
      const kept = stored.filter((m) => m.seq >= keepFrom && m.seq < keepFrom + after.canonical.messages.length - 1);
      expect(after.canonical.messages.slice(1).map((m) => ({ role: m.role, parts: m.parts }))).toEqual(kept.map((m) => ({ role: m.role, parts: JSON.parse(m.parts_json) })));
      expect(after.canonical.messages.slice(1).filter((m) => m.role === 'assistant')).toHaveLength(RETENTION);
      expect(stored).toHaveLength(2 * PAGES + 2);
    } finally {
      db.close();
    }
  });

  it('says on each progress line the two figures the check compared, the larger first', () => {
    const lines = progress.split('\n').filter((l) => l.includes('] compacted ('));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) {
      const m = /compacted \(([\d,]+) input tokens > (?:token_limit ([\d,]+)|the ([\d,]+) the context window leaves)\)/.exec(line);
      expect(m, line).not.toBeNull();
      const [tokens, limit] = [m![1]!, m![2] ?? m![3]!].map((n) => Number(n.replace(/,/g, '')));
      expect(tokens, line).toBeGreaterThan(limit!);
      if (m![2] !== undefined) expect(limit).toBe(TOKEN_LIMIT);
    }
  });

  it('repeats the task and lists the tools used in the head', () => {
    for (const req of worker.filter(compacted)) {
      expect(headText(req)).toContain(`## Task\n${TASK}`);
      expect(headText(req)).toMatch(/## Tools used so far\n- builtins_http_get \(\d+×\)/);
    }
  });

  it('shows each compaction in inspect --transcript and as a context.cut event', async () => {
    const runId = (openRunDb(dir).prepare('SELECT id FROM runs').pluck().get() as string);
    const shown = await runCli(['inspect', runId, '--transcript'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/── compacted after message \d+: messages 1–\d+ replaced by the head below \(the request uncut would have held about \d[\d,]* input tokens\)/);
    expect(shown.stdout).toContain('<COMPACTED_CONTEXT>');
    const db = openRunDb(dir);
    try {
      const events = db.prepare("SELECT COUNT(*) FROM events WHERE type = 'context.cut'").pluck().get() as number;
      expect(events).toBeGreaterThan(2);
    } finally {
      db.close();
    }
  });
});

describe('pruning of a long session', () => {
  it('keeps at most prune_on turns in a request and repeats the task', async () => {
    const turns = script();
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({ 'mission.hcl': projectHcl(server, '    pruning {\n      prune_on = 6\n      prune_to = 2\n    }') });
      const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const worker = requestsOf(server, workerOf('read'));
      expect(worker).toHaveLength(PAGES + 1);
      for (const req of worker) {
        expectPairsWhole(req.canonical.messages);
        expect(req.canonical.messages.filter((m) => m.role === 'assistant').length).toBeLessThanOrEqual(6);
      }
      const pruned = worker.filter((req) => /were pruned to keep it inside the context window/.test(headText(req)));
      expect(pruned.length).toBeGreaterThan(PAGES / 2);
      for (const req of pruned) expect(headText(req).startsWith(TASK)).toBe(true);
    } finally {
      await server.close();
    }
  }, 240_000);
});

describe('compaction across kill -9 and resume', () => {
  it('sends the same request after the resume as the killed process did', async () => {
    let child: ChildProcess | undefined;
    let killedAt: FakeRequest | undefined;
    const turns = script((req) => {
      // The first request built from a stored compaction: the process dies while it is in flight.
      if (killedAt === undefined && compacted(req)) {
        killedAt = req;
        child?.kill('SIGKILL');
      }
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({ 'mission.hcl': projectHcl(server, COMPACTION) });
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      expect(runId, first.stdout).toBeDefined();
      const resumed = await runCli(['resume', runId!], { cwd: dir, timeoutMs: 180_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const worker = requestsOf(server, workerOf('read'));
      const again = worker[worker.indexOf(killedAt!) + 1]!;
      expect(compacted(again)).toBe(true);
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(killedAt!.body));
      expect(worker.at(-1)!.canonical.messages.length).toBeLessThan(2 * PAGES);
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('compaction with summarize = true', () => {
  it("asks the session's model for a summary, puts it in the head and records the call as a turn", async () => {
    const turns = script();
    const summaries: FakeRequest[] = [];
    const server = await startFakeModelServer({
      respond: (req) => {
        if (!req.canonical.system.startsWith("You summarize part of an agent's conversation")) return turns.respond(req);
        summaries.push(req);
        return { text: `Summary ${summaries.length}: pages read so far, nothing open.`, usage: { inputTokens: 1000, outputTokens: 20 } };
      },
    });
    try {
      const dir = writeProject({ 'mission.hcl': projectHcl(server, COMPACTION.replace('turn_retention', 'summarize      = true\n      turn_retention')) });
      const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const worker = requestsOf(server, workerOf('read'));
      const heads = worker.filter(compacted).map(headText);
      expect(summaries.length).toBeGreaterThan(2);
      // The summarizer reads what is dropped: tool results included, no tools offered.
      expect(summaries[0]!.canonical.tools).toEqual([]);
      expect(JSON.stringify(summaries[0]!.canonical.messages)).toContain('page 1|');
      expect(heads[0]).toContain('## Summary of the compacted messages\nSummary 1: pages read so far, nothing open.');
      expect(heads.at(-1)).toContain(`Summary ${summaries.length}:`);
      const db = openRunDb(dir);
      try {
        const rows = db.prepare("SELECT COUNT(*) FROM model_turns t JOIN sessions s ON s.id = t.session_id WHERE s.agent = 'worker'").pluck().get() as number;
        expect(rows).toBe(worker.length + summaries.length);
      } finally {
        db.close();
      }
    } finally {
      await server.close();
    }
  }, 240_000);
});

describe('the summary call across kill -9 and resume', () => {
  const isSummary = (req: FakeRequest): boolean => req.canonical.system.startsWith("You summarize part of an agent's conversation");

  /** Runs with summarize = true, kills the run at the first request `killAt` picks, resumes it. */
  async function killAndResume(killAt: (req: FakeRequest) => boolean) {
    let child: ChildProcess | undefined;
    let killed: FakeRequest | undefined;
    const turns = script();
    const summaries: FakeRequest[] = [];
    const server = await startFakeModelServer({
      respond: (req) => {
        if (killed === undefined && killAt(req)) {
          killed = req;
          child?.kill('SIGKILL');
        }
        if (!isSummary(req)) return turns.respond(req);
        summaries.push(req);
        return { text: `Summary ${summaries.length}: pages read so far.`, usage: { inputTokens: 1000, outputTokens: 20 } };
      },
    });
    try {
      const dir = writeProject({ 'mission.hcl': projectHcl(server, COMPACTION.replace('turn_retention', 'summarize      = true\n      turn_retention')) });
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      const resumed = await runCli(['resume', runId!], { cwd: dir, timeoutMs: 180_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const db = openRunDb(dir);
      try {
        const views = db.prepare("SELECT COUNT(*) FROM context_views v JOIN sessions s ON s.id = v.session_id WHERE s.agent = 'worker'").pluck().get() as number;
        const turnRows = db.prepare("SELECT COUNT(*) FROM model_turns t JOIN sessions s ON s.id = t.session_id WHERE s.agent = 'worker'").pluck().get() as number;
        return { killed: killed!, summaries, worker: requestsOf(server, workerOf('read')), views, turnRows };
      } finally {
        db.close();
      }
    } finally {
      await server.close();
    }
  }

  it('asks a summary killed in flight once more, and no model turn of the worker twice', async () => {
    const r = await killAndResume(isSummary);
    // The killed call was never answered into the store: it is asked again, byte for byte, once.
    expect(r.summaries.length).toBe(r.views + 1);
    expect(JSON.stringify(r.summaries[1]!.body)).toBe(JSON.stringify(r.killed.body));
    expect(r.worker).toHaveLength(PAGES + 1);
    // Each stored turn once: the worker's replies and one summary per compaction.
    expect(r.turnRows).toBe(PAGES + 1 + r.views);
  }, 300_000);

  it('does not ask a summary again once its answer is stored with the cut', async () => {
    // Killed while the first request built from the summarized cut is in flight.
    const r = await killAndResume((req) => !isSummary(req) && compacted(req));
    expect(headText(r.killed)).toContain('Summary 1:');
    expect(r.summaries.length).toBe(r.views);
    const again = r.worker[r.worker.indexOf(r.killed) + 1]!;
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(r.killed.body));
  }, 300_000);
});

describe('compaction when the kept turns alone pass the limit', () => {
  it('keeps fewer turns than turn_retention, so no request passes token_limit', async () => {
    const turns = script();
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      // Ten turns of 20 KB pages are ~50,000 tokens: more than the limit by themselves.
      const dir = writeProject({ 'mission.hcl': projectHcl(server, COMPACTION.replace(`turn_retention = ${RETENTION}`, 'turn_retention = 10')) });
      const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const worker = requestsOf(server, workerOf('read'));
      expect(worker).toHaveLength(PAGES + 1);
      for (const req of worker) {
        expectPairsWhole(req.canonical.messages);
        expect(reportedTokens(req)).toBeLessThanOrEqual(TOKEN_LIMIT);
      }
      const kept = worker.filter(compacted).map((req) => req.canonical.messages.filter((m) => m.role === 'assistant').length);
      expect(kept.length).toBeGreaterThan(PAGES / 2);
      expect(Math.max(...kept)).toBeLessThan(10);
      expect(Math.min(...kept)).toBeGreaterThanOrEqual(1);
    } finally {
      await server.close();
    }
  }, 240_000);
});

describe('a model turn too large for the window', () => {
  /** A commander on a 200k model and a reader agent on a model block whose window is `window`. */
  const readerHcl = (server: FakeModelServer, window: number) => `${LOCAL_HTTP}${fakeModelBlock(server)}
model "tiny" {
  provider       = "anthropic"
  base_url       = "${server.anthropicBaseURL}"
  api_key        = "test-key-123"
  context_window = ${window}
}
agent "reader" {
  model       = models.tiny.claude_sonnet_4_6
  personality = "Reads pages."
  tools       = [builtins.http.get]
}
mission "m" {
  commander { model = models.fake.claude_sonnet_4_6 }
  task "read" {
    objective = "Read the page."
    agents    = [agents.reader]
    discovery = false
  }
}
`;

  async function run(window: number) {
    const reader: FakeRequest[] = [];
    const commander = turnScript({ [commanderOf('read')]: [callAgent('reader', TASK), (req) => taskComplete(lastToolResult(req).slice(0, 400))] });
    const server = await startFakeModelServer({
      respond: (req) => {
        if (!req.canonical.system.includes(agentOf('reader'))) return commander.respond(req);
        reader.push(req);
        const usage = { inputTokens: reportedTokens(req), outputTokens: 10 };
        if (JSON.stringify(req.canonical.messages).includes('[stored result res_')) return { text: 'Read the stored page through its preview.', usage };
        return { ...toolCall('builtins_http_get', { url: `${pagesUrl}/page/1` }), usage };
      },
    });
    try {
      const dir = writeProject({ 'mission.hcl': readerHcl(server, window) });
      const result = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
      expect(commander.problems).toEqual([]);
      return { result, reader, answer: lastToolResult(requestsOf(server, commanderOf('read')).at(-1)!) };
    } finally {
      await server.close();
    }
  }

  it('sends its large tool result as the preview of a stored copy when even the last turn alone does not fit', async () => {
    // An 8,000-token window leaves 4,000 beside the reply; the 20 KB page is ~5,000 tokens.
    const { result, reader, answer } = await run(8000);
    expect(result.code, result.stderr).toBe(0);
    expect(reader).toHaveLength(2);
    const second = reader[1]!;
    // One user message: the compacted context, then the call and its stored result's preview.
    expect(second.canonical.messages).toHaveLength(1);
    expect(headText(second)).toContain(`## Task\n${TASK}`);
    expect(headText(second)).toMatch(/## Your latest tool calls[\s\S]*### builtins_http_get \{"url":"[^"]+\/page\/1"\}\n\[stored result res_[0-9a-f]{16}\]/);
    expect(second.canonical.tools.map((t) => t.name)).toContain('result_read');
    expect(reportedTokens(second)).toBeLessThanOrEqual(4000);
    expect(answer).toContain('Read the stored page through its preview.');
  }, 240_000);

  it('fails the session naming the sizes when not even that fits', async () => {
    // A 2,000-token window leaves 1,000: less than the reader's system prompt and tools.
    const { result, reader, answer } = await run(2000);
    expect(reader).toHaveLength(1);
    expect(answer).toMatch(/the next model request would hold about [\d,]+ input tokens, more than the 1,000 its model's context window of 2,000 leaves beside the reply, .*not even with its last tool results replaced by stored previews/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 240_000);
});
