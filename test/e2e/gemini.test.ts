// End-to-end: missions on Gemini (`provider = "gemini"`) through the built CLI against the fake model
// server speaking the Gemini REST wire, which — like Gemini 3 — refuses a function-call turn that
// lost the thought signature it handed out. A commander and a worker with sequential and parallel
// function calls, streamed and not; a run killed with SIGKILL mid tool loop and resumed from the
// store; a 429 RESOURCE_EXHAUSTED, a 500 and a dropped stream; a recording replayed.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { GEMINI_MODEL, LOCAL_HTTP, openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { fakeThoughtSignature } from '../support/fakeGeminiWire.js';
import { callAgent, lastToolResult, taskComplete, turnScript, type TurnReply } from '../support/turnScript.js';
import { closeServer, listenLocal } from '../support/localServer.js';

const KEY = 'gm-secret-key-8431';
const ENV = { SQUADRON_VAR_gemini_key: KEY, SQUADRON_RETRY_BASE_DELAY_MS: '10' };

let site: Server;
let siteUrl = '';

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`word at ${req.url}: ${{ '/one': 'apple', '/two': 'birch', '/three': 'cedar' }[req.url ?? ''] ?? 'none'}`);
  });
  siteUrl = await listenLocal(site);
});

afterAll(async () => {
  await closeServer(site);
  removeProjects();
});

function project(server: FakeModelServer, stream = true): string {
  return writeProject({
    'mission.hcl': `${LOCAL_HTTP}
variable "gemini_key" {
  secret = true
}
model "fake" {
  provider = "gemini"
  base_url = "${server.url}"
  api_key  = vars.gemini_key
${stream ? '' : '  stream   = false\n'}}
mission "words" {
  commander { model = ${GEMINI_MODEL} }
  task "collect" {
    objective = "Collect the words published at ${siteUrl}/one, /two and /three"
    tools     = [builtins.http.get]
  }
}
`,
  });
}

const COMMANDER = 'commander of task "collect"';
const WORKER = 'worker agent of task "collect"';

/** The worker fetches /one and /two in parallel, then /three, then answers; the commander relays it. */
function script(workerFirst: TurnReply[] = []): ReturnType<typeof turnScript> {
  let failures = [...workerFirst];
  return turnScript({
    [COMMANDER]: [callAgent('worker', 'Fetch the three words.'), (req) => taskComplete(`Worker said: ${JSON.parse(lastToolResult(req)).answer}`)],
    [WORKER]: [
      (req) => {
        const failure = failures.shift();
        if (failure) return typeof failure === 'function' ? failure(req) : failure;
        failures = [];
        return {
          thinking: [{ text: 'Two pages first, at once.' }],
          toolCalls: [
            { name: 'builtins_http_get', input: { url: `${siteUrl}/one` } },
            { name: 'builtins_http_get', input: { url: `${siteUrl}/two` } },
          ],
        };
      },
      { text: 'Now the third.', toolCalls: [{ name: 'builtins_http_get', input: { url: `${siteUrl}/three` } }] },
      (req) => ({ text: `Words: ${wordsIn(req).join(', ')}` }),
    ],
  });
}

/** The words the worker's tool results hold, in order. */
function wordsIn(request: FakeRequest): string[] {
  return request.canonical.messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === 'tool_result' ? p.content.flatMap((c) => (c.type === 'text' ? [...c.text.matchAll(/word at \/\w+: (\w+)/g)].map((x) => x[1]!) : [])) : [])),
  );
}

const workerRequests = (server: FakeModelServer): FakeRequest[] => server.requests.filter((r) => r.canonical.system.includes(WORKER));

interface WireContent {
  role: string;
  parts: { functionCall?: { name: string; args: unknown }; functionResponse?: unknown; thoughtSignature?: string; text?: string; thought?: boolean }[];
}

const contentsOf = (request: FakeRequest): WireContent[] => request.body['contents'] as WireContent[];

function expectNoSecret(dir: string, ...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(KEY);
  const db = openRunDb(dir);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of tables) expect(JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all())).not.toContain(KEY);
  } finally {
    db.close();
  }
}

describe.each([true, false])('a mission on Gemini (stream: %s)', (stream) => {
  it('runs a commander and a worker through parallel and sequential function calls, sending every signature back', async () => {
    const turns = script();
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = project(server, stream);
      const result = await runCli(['run', dir, '--json'], { cwd: dir, env: ENV });
      expect(turns.problems).toEqual([]);
      expect(server.errors).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc.tasks.collect.status).toBe('completed');
      expect(doc.tasks.collect.summary).toContain('Words: apple, birch, cedar');
      expect(doc.usage.model_turns).toBe(5);

      expect(server.requests.every((r) => r.stream === stream && r.path.startsWith('/v1beta/models/gemini-3.8-flash:'))).toBe(true);
      expect(server.requests.every((r) => r.headers['x-goog-api-key'] === KEY)).toBe(true);
      const [w1, , w3] = workerRequests(server);
      // The last worker request holds both function-call turns, each first call with its own signature,
      // the parallel results together in one user turn, and no thought text.
      const contents = contentsOf(w3!);
      expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
      expect(contents[1]!.parts.map((p) => p.thoughtSignature)).toEqual([fakeThoughtSignature(w1!.n, 'builtins_http_get', JSON.stringify({ url: `${siteUrl}/one` })), undefined]);
      expect(contents[2]!.parts.map((p) => Object.keys(p))).toEqual([['functionResponse'], ['functionResponse']]);
      expect(contents[3]!.parts.find((p) => p.functionCall)?.thoughtSignature).toBeDefined();
      expect(JSON.stringify(w3!.body)).not.toContain('Two pages first');
      expectNoSecret(dir, result.stdout, result.stderr);
    } finally {
      await server.close();
    }
  });
});

describe('Gemini: kill -9 mid tool loop, then resume', () => {
  it('resumes from the stored parts and sends the stored signatures again, which the server accepts', async () => {
    const turns = script();
    const server = await startFakeModelServer({ respond: turns.respond });
    let child: ChildProcess | undefined;
    let killedAt = 0;
    server.onRequest = (n, request) => {
      // The worker's third request: both function-call turns are stored by now.
      if (killedAt === 0 && request.canonical.system.includes(WORKER) && contentsOf(request).length === 5) {
        killedAt = n;
        child?.kill('SIGKILL');
      }
    };
    try {
      const dir = project(server);
      const first = await runCli(['run', dir], { cwd: dir, env: ENV, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      expect(killedAt).toBeGreaterThan(0);
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      expect(runId, first.stdout).toBeDefined();
      const signedBefore = workerRequests(server).find((r) => r.n === killedAt)!;

      const resumed = await runCli(['resume', runId!, '--json'], { cwd: dir, env: ENV });
      expect(server.errors).toEqual([]);
      expect(turns.problems).toEqual([]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).tasks.collect.summary).toContain('Words: apple, birch, cedar');
      // The first worker request after the resume carries the signatures issued before the kill.
      const after = workerRequests(server).filter((r) => r.n > killedAt);
      expect(after.length).toBeGreaterThan(0);
      const signatures = (r: FakeRequest): (string | undefined)[] => contentsOf(r).flatMap((c) => c.parts.filter((p) => p.functionCall).map((p) => p.thoughtSignature));
      expect(signatures(after[0]!)).toEqual(signatures(signedBefore));
      expect(signatures(after[0]!).filter((s) => s !== undefined)).toHaveLength(2);
      expectNoSecret(dir, first.stdout, resumed.stdout, resumed.stderr);
    } finally {
      await server.close();
    }
  });
});

describe('Gemini: provider faults', () => {
  it('survives a 429 RESOURCE_EXHAUSTED, a 500 and a stream dropped mid-way', async () => {
    const faults: FakeReply[] = [{ status: 429, retryAfter: 0.05 }, { status: 500 }, { text: 'Fetching the pages now, one moment please.', chunkSize: 4, drop: true }];
    const turns = script(faults);
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = project(server);
      const result = await runCli(['run', dir, '--json'], { cwd: dir, env: ENV });
      expect(turns.problems).toEqual([]);
      expect(server.errors).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tasks.collect.summary).toContain('Words: apple, birch, cedar');
      expect(result.stderr).toMatch(/retry 1 .*429 rate limited: RESOURCE_EXHAUSTED/);
      expect(result.stderr).toMatch(/retry 2 .*500 server error: INTERNAL/);
      expect(result.stderr).toMatch(/retry 3 .*stream broke off/);
      expect(workerRequests(server)).toHaveLength(3 + 3);
    } finally {
      await server.close();
    }
  });
});

describe('Gemini: --record then --replay', () => {
  it('records the turns with their signatures and replays them without calling the model', async () => {
    const turns = script();
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = project(server);
      const cassette = join(dir, 'gemini.jsonl');
      const recorded = await runCli(['run', dir, '--json', '--record', cassette], { cwd: dir, env: ENV });
      expect(recorded.code, recorded.stderr).toBe(0);
      const lines = readFileSync(cassette, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(5);
      expect(lines.some((line) => line.includes('"thoughtSignature"'))).toBe(true);
      expect(readFileSync(cassette, 'utf8')).not.toContain(KEY);
      const sent = server.requests.length;

      const replayed = await runCli(['run', dir, '--json', '--replay', cassette], { cwd: dir, env: ENV });
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(server.requests.length).toBe(sent);
      const doc = JSON.parse(replayed.stdout);
      expect(doc.tasks.collect.summary).toContain('Words: apple, birch, cedar');
      expect(existsSync(cassette)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('Gemini: a run switched from Anthropic to Gemini mid tool loop', () => {
  it('resumes on Gemini with the placeholder signature on the function calls Claude made, which the server accepts', async () => {
    const turns = script();
    const server = await startFakeModelServer({ respond: turns.respond });
    let child: ChildProcess | undefined;
    let killedAt = 0;
    server.onRequest = (n, request) => {
      if (killedAt === 0 && request.api === 'anthropic' && request.canonical.system.includes(WORKER) && request.canonical.messages.length === 5) {
        killedAt = n;
        child?.kill('SIGKILL');
      }
    };
    try {
      const dir = project(server);
      const file = join(dir, 'mission.hcl');
      const onGemini = readFileSync(file, 'utf8');
      writeFileSync(file, onGemini.replace('provider = "gemini"', 'provider = "anthropic"').replace(GEMINI_MODEL, 'models.fake.claude_sonnet_4_6'));
      const first = await runCli(['run', dir], { cwd: dir, env: ENV, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      expect(server.requests.every((r) => r.api === 'anthropic')).toBe(true);

      writeFileSync(file, onGemini);
      const resumed = await runCli(['resume', runId!, '--json', '--allow-config-change'], { cwd: dir, env: ENV });
      expect(server.errors).toEqual([]);
      expect(turns.problems).toEqual([]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).tasks.collect.summary).toContain('Words: apple, birch, cedar');
      const onGeminiWorker = workerRequests(server).filter((r) => r.api === 'gemini');
      expect(onGeminiWorker.length).toBeGreaterThan(0);
      const firstCalls = contentsOf(onGeminiWorker[0]!)
        .filter((c) => c.role === 'model')
        .map((c) => c.parts.filter((p) => p.functionCall).map((p) => p.thoughtSignature ?? null));
      expect(firstCalls).toEqual([['skip_thought_signature_validator', null], ['skip_thought_signature_validator']]);
    } finally {
      await server.close();
    }
  });
});
