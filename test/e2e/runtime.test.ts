// End-to-end behaviour of `squadron run` that a production user relies on: surviving flaky model
// servers, parallelism bounds, structured output, routing, failures, corrections and interrupts.
// Every test drives the built CLI against the fake model server and reads the SQLite database.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { LOCAL_HTTP, fakeModelBlock, openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, withFakeModelServer } from '../support/fakeModelServer.js';
import type { FakeRequest } from '../support/fakeTypes.js';
import { callAgent, firstUserMessage, lastToolResult, taskComplete, toolCall, turnScript, type TurnReply } from '../support/turnScript.js';
import { listenLocal } from '../support/localServer.js';

afterAll(removeProjects);

const FAST_RETRIES = { SQUADRON_RETRY_BASE_DELAY_MS: '10' };

const model = (server: FakeModelServer): string => fakeModelBlock(server);

const withServer = withFakeModelServer;

const project = (hcl: string): string => writeProject({ 'mission.hcl': hcl });

/** A project with the fake model and mission "m" whose commander uses it; `body` holds its tasks. */
const missionProject = (server: FakeModelServer, body: string, top = ''): string =>
  project(`${top}${model(server)}\nmission "m" {\n  commander { model = models.fake.claude_haiku_4_5 }\n${body}\n}\n`);

/** A task holding only builtins.utils.current_time (a tool with no side effects). */
const timeTask = (name: string, objective = name): string =>
  `  task "${name}" {\n    objective = "${objective}"\n    tools     = [builtins.utils.current_time]\n  }`;

/** A task whose commander calls the worker once and completes with the worker's answer. */
function simpleTask(name: string, workerReplies: TurnReply[]): Record<string, TurnReply[]> {
  return {
    [`commander of task "${name}"`]: [callAgent('worker', `Do ${name}.`), (req) => taskComplete(`${name}: ${JSON.parse(lastToolResult(req)).answer}`)],
    [`worker agent of task "${name}"`]: workerReplies,
  };
}

const openDb = openRunDb;

describe('model server trouble', () => {
  it('survives 429 with retry-after, 500, 529, a dropped connection and malformed tool-call JSON', async () => {
    const failures: FakeReply[] = [{ status: 429, retryAfter: 1 }, { status: 500 }, { status: 529 }, { drop: true }];
    let workerTurnOneFailures = 0;
    const script = turnScript({
      ...simpleTask('flaky', [
        () => (workerTurnOneFailures < failures.length ? failures[workerTurnOneFailures++]! : { toolCalls: [{ name: 'builtins_utils_current_time', rawArguments: '{"timezone": "UTC"' }] }),
        (req) => ({ text: `tool said: ${lastToolResult(req)}` }),
      ]),
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('flaky', 'be resilient')}`);
      const started = Date.now();
      const result = await runCli(['run', dir, '--json'], { cwd: dir, env: FAST_RETRIES });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // retry-after: 1 was honoured
      const doc = JSON.parse(result.stdout);
      expect(doc.tasks.flaky.summary).toContain('not valid JSON');
      expect(result.stderr).toMatch(/retry 1 .*429/);
      const db = openDb(dir);
      // The malformed call was refused, never executed.
      expect(db.prepare("SELECT COUNT(*) AS n FROM tool_calls WHERE api_name = 'builtins_utils_current_time'").get()).toEqual({ n: 0 });
      db.close();
    });
  });

  it('fails the task with a clear message when retries are exhausted, and exits 1', async () => {
    const script = turnScript({ 'commander of task "down"': [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }] });
    await withServer(() => ({ status: 503 }), async (server) => {
      const dir = missionProject(server, `
${timeTask('down', 'x')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir, env: FAST_RETRIES });
      expect(result.code).toBe(1);
      const doc = JSON.parse(result.stdout);
      expect(doc.status).toBe('failed');
      expect(doc.tasks.down.error).toMatch(/503/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(script.problems).toEqual([]);
    });
  });
});

describe('scheduling', () => {
  const fanOut = (maxParallel: number | undefined) => (server: FakeModelServer) => `${model(server)}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  ${maxParallel === undefined ? '' : `max_parallel = ${maxParallel}`}
${timeTask('a')}
${timeTask('b')}
${timeTask('c')}
  task "join" {
    depends_on = [tasks.a, tasks.b, tasks.c]
    objective  = "join"
    tools      = [builtins.utils.current_time]
  }
}`;
  const slowScript = () => {
    const rules: Record<string, TurnReply[]> = {};
    for (const t of ['a', 'b', 'c', 'join']) {
      rules[`commander of task "${t}"`] = [{ ...callAgent('worker', t), delayMs: 300 }, (req) => taskComplete(`${t} done ${lastToolResult(req).length}`)];
      rules[`worker agent of task "${t}"`] = [{ text: `${t} ok`, delayMs: 300 }];
    }
    return turnScript(rules);
  };

  it('runs independent tasks at the same time and a dependent one only after them', async () => {
    // No model delays: each of a, b and c holds its commander's first reply until all three are in
    // flight, which can only happen if the scheduler started them together.
    const script = turnScript(Object.fromEntries(['a', 'b', 'c', 'join'].flatMap((t) => [
      [`commander of task "${t}"`, [callAgent('worker', t), (req: FakeRequest) => taskComplete(`${t} done ${lastToolResult(req).length}`)]],
      [`worker agent of task "${t}"`, [{ text: `${t} ok` }]],
    ])) as Record<string, TurnReply[]>);
    let arrived = 0;
    let allThere: () => void = () => {};
    const together = new Promise<void>((resolve) => (allThere = resolve));
    const respond = async (req: FakeRequest): Promise<FakeReply> => {
      const first = req.canonical.messages.every((m) => m.role !== 'assistant');
      if (first && ['a', 'b', 'c'].some((t) => req.canonical.system.includes(`commander of task "${t}"`))) {
        if (++arrived === 3) allThere();
        await together;
      }
      return script.respond(req);
    };
    await withServer(respond, async (server) => {
      const dir = project(fanOut(undefined)(server));
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.maxInFlight).toBe(3);
      const joinFirst = server.requests.findIndex((r) => r.canonical.system.includes('commander of task "join"'));
      const lastOfOthers = Math.max(...['a', 'b', 'c'].map((t) => server.requests.map((r) => r.canonical.system.includes(`commander of task "${t}"`)).lastIndexOf(true)));
      expect(joinFirst).toBeGreaterThan(lastOfOthers);
      // The join task's commander sees the three upstream summaries.
      const joinRequest = server.requests[joinFirst]!;
      for (const t of ['a', 'b', 'c']) expect(joinRequest.canonical.system).toContain(`### ${t}\n${t} done`);
    });
  });

  it('respects max_parallel', async () => {
    const script = slowScript();
    await withServer(script.respond, async (server) => {
      const dir = project(fanOut(2)(server));
      const result = await runCli(['run', dir], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.maxInFlight).toBe(2);
    });
  });

  it('activates a router target chosen in task_complete and send_to targets; others are skipped', async () => {
    const script = turnScript({
      'commander of task "triage"': [taskComplete('urgent case', { route: 'escalate' })],
      ...simpleTask('escalate', [{ text: 'escalated' }]),
      ...simpleTask('notify', [{ text: 'notified' }]),
      ...simpleTask('archive', [{ text: 'archived' }]),
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
  task "triage" {
    objective = "triage"
    tools     = [builtins.utils.current_time]
    router {
      route {
        target    = tasks.escalate
        condition = "the case is urgent"
      }
      route {
        target    = tasks.archive
        condition = "nothing to do"
      }
    }
  }
  task "escalate" {
    objective = "escalate"
    tools     = [builtins.utils.current_time]
    send_to   = [tasks.notify]
  }
${timeTask('notify')}
${timeTask('archive')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc.tasks.triage.status).toBe('completed');
      expect(doc.tasks.escalate.status).toBe('completed');
      expect(doc.tasks.notify.status).toBe('completed');
      expect(doc.tasks.archive.status).toBe('skipped');
      const db = openDb(dir);
      expect(db.prepare('SELECT from_task, to_task, kind FROM route_decisions ORDER BY created_at').all()).toEqual([
        { from_task: 'triage', to_task: 'escalate', kind: 'route' },
        { from_task: 'escalate', to_task: 'notify', kind: 'send_to' },
      ]);
      db.close();
      // The routed task's commander sees the router's summary as upstream context.
      const escalate = server.requests.find((r) => r.canonical.system.includes('commander of task "escalate"'))!;
      expect(escalate.canonical.system).toContain('### triage\nurgent case');
    });
  });

  it('fails the mission when a task fails, after cancelling the tasks in flight; nothing runs after', async () => {
    const script = turnScript({
      'commander of task "bad"': [taskComplete('could not', { succeed: false, reason: 'the source is gone' })],
      'commander of task "slow"': [callAgent('worker', 'slow'), (req) => taskComplete(lastToolResult(req))],
      // Held until the run cancels the task (the client closes the request), however long that takes.
      'worker agent of task "slow"': [{ text: 'slow ok', delayMs: 300_000 }],
    });
    // "bad" fails only once slow's worker call is in flight, so there is a task in flight to cancel.
    let slowInFlight: () => void = () => {};
    const slowStarted = new Promise<void>((resolve) => (slowInFlight = resolve));
    const respond = async (req: FakeRequest): Promise<FakeReply> => {
      if (req.canonical.system.includes('worker agent of task "slow"')) slowInFlight();
      if (req.canonical.system.includes('commander of task "bad"')) await slowStarted;
      return script.respond(req);
    };
    await withServer(respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('bad')}
${timeTask('slow')}
  task "after" {
    depends_on = [tasks.bad]
    objective  = "never"
    tools      = [builtins.utils.current_time]
  }`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(result.code).toBe(1);
      const doc = JSON.parse(result.stdout);
      expect(doc.status).toBe('failed');
      expect(doc.error).toContain('the source is gone');
      expect(doc.tasks.bad.status).toBe('failed');
      expect(doc.tasks.slow.status).toBe('cancelled');
      expect(doc.tasks.after.status).toBe('pending');
      expect(server.requests.some((r) => r.canonical.system.includes('task "after"'))).toBe(false);
      const db = openDb(dir);
      const run = db.prepare('SELECT status, finished_at FROM runs').get() as { status: string; finished_at: string };
      expect(run.status).toBe('failed');
      const late = db.prepare('SELECT COUNT(*) AS n FROM events WHERE created_at > ?').get(run.finished_at) as { n: number };
      expect(late.n).toBe(0); // nothing written after the run closed
      db.close();
    });
  });
});

describe('tool calls', () => {
  it('runs the independent tool calls of one turn concurrently and keeps their results in order', async () => {
    const { createServer } = await import('node:http');
    let inFlight = 0;
    let maxInFlight = 0;
    const site = createServer((req, res) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // The first URL answers last, so completion order differs from call order.
      const delay = req.url === '/one' ? 400 : 100;
      setTimeout(() => {
        inFlight -= 1;
        res.end(`page ${req.url}`);
      }, delay);
    });
    const base = await listenLocal(site);
    const script = turnScript({
      ...simpleTask('pair', [
        { toolCalls: [{ name: 'builtins_http_get', input: { url: `${base}/one` } }, { name: 'builtins_http_get', input: { url: `${base}/two` } }] },
        (req) => {
          const results = req.canonical.messages.at(-1)!.parts.map((p) => (p.type === 'tool_result' ? p.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : ''));
          return { text: results.map((r) => r.split('\n').pop()).join(' | ') };
        },
      ]),
    });
    try {
      await withServer(script.respond, async (server) => {
        const dir = missionProject(server, `
  task "pair" {
    objective = "fetch two pages"
    tools     = [builtins.http.get]
  }`, LOCAL_HTTP);
        const result = await runCli(['run', dir, '--json'], { cwd: dir });
        expect(script.problems).toEqual([]);
        expect(result.code, result.stderr).toBe(0);
        expect(maxInFlight).toBe(2);
        expect(JSON.parse(result.stdout).tasks.pair.summary).toBe('pair: page /one | page /two');
      });
    } finally {
      await new Promise<void>((r) => site.close(() => r()));
    }
  });
});

describe('the commander contract', () => {
  it('sends an output schema mismatch back to the model, then stores the corrected output', async () => {
    const script = turnScript({
      'commander of task "facts"': [
        toolCall('submit_output', { output: { count: 'three' } }),
        (req) => {
          expect(lastToolResult(req)).toContain('output.count: expected an integer');
          expect(lastToolResult(req)).toContain('output.title: required field is missing');
          return { toolCalls: [{ name: 'submit_output', input: { output: { count: 3, title: 'Facts' } } }, { name: 'task_complete', input: { summary: 'three facts' } }] };
        },
      ],
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
  task "facts" {
    objective = "count"
    tools     = [builtins.utils.current_time]
    output {
      field "count" {
        type     = "integer"
        required = true
      }
      field "title" {
        type     = "string"
        required = true
      }
    }
  }`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tasks.facts.output).toEqual({ count: 3, title: 'Facts' });
    });
  });

  it('corrects a reply without a tool call at most 3 times, then fails the task with that reason', async () => {
    const script = turnScript({ 'commander of task "chatty"': [{ text: 'hmm' }, { text: 'well' }, { text: 'so' }, { text: 'anyway' }] });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('chatty', 'talk')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout).tasks.chatty.error).toMatch(/without a tool call 4 times in a row \(after 3 corrections\)/);
      expect(server.requests).toHaveLength(4);
      expect(JSON.stringify(server.requests[3]!.canonical.messages)).toContain('correction 3 of 3');
    });
  });

  it('answers every tool call of the turn that completes the task (no orphaned calls)', async () => {
    const script = turnScript({
      'commander of task "t"': [
        { toolCalls: [{ name: 'task_complete', input: { summary: 'done' } }, { name: 'call_agent', input: { name: 'nobody', task: 'x' } }] },
      ],
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('t')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      const db = openDb(dir);
      const last = db.prepare("SELECT parts_json FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.agent = 'commander' ORDER BY m.seq DESC LIMIT 1").get() as { parts_json: string };
      const parts = JSON.parse(last.parts_json) as { type: string; isError: boolean }[];
      expect(parts.map((p) => p.type)).toEqual(['tool_result', 'tool_result']);
      expect(parts[1]!.isError).toBe(true);
      db.close();
    });
  });

  it('tells the model its reply was truncated and lets it continue', async () => {
    const script = turnScript({
      ...simpleTask('long', [
        { text: 'a very long answ', stopReason: 'max_tokens' },
        (req) => {
          expect(JSON.stringify(req.canonical.messages.at(-1))).toContain('cut off because it reached the output limit');
          return { text: 'short answer' };
        },
      ]),
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('long')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tasks.long.summary).toBe('long: short answer');
    });
  });

  it('bounds a runaway agent with max_turns per instruction and reports it to the commander', async () => {
    const loop = toolCall('builtins_utils_current_time', {});
    const script = turnScript({
      'commander of task "loop"': [callAgent('worker', 'loop forever'), (req) => taskComplete(`worker said: ${lastToolResult(req)}`)],
      'worker agent of task "loop"': [loop, loop, loop, loop, loop],
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
  task "loop" {
    objective = "loop"
    tools     = [builtins.utils.current_time]
    max_turns = 3
  }`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tasks.loop.summary).toContain('turn limit reached (3 model turns on one instruction)');
      expect(server.requests.filter((r) => r.canonical.system.includes('worker agent of task "loop"'))).toHaveLength(3);
    });
  });

  it('keeps the conversation valid when an agent gives up after four truncated replies', async () => {
    const cut: FakeReply = { text: 'partial', toolCalls: [{ name: 'builtins_utils_current_time', input: {} }], stopReason: 'max_tokens' };
    const script = turnScript({
      'commander of task "cut"': [
        callAgent('worker', 'try'),
        toolCall('call_agent', { name: 'worker', response: 'try again, shorter' }),
        (req) => taskComplete(lastToolResult(req)),
      ],
      'worker agent of task "cut"': [cut, cut, cut, cut, { text: 'short answer' }],
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `${timeTask('cut')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tasks.cut.summary).toContain('short answer');
      // Every tool call the worker's last request carries is answered before the next message.
      const last = server.requests.filter((r) => r.canonical.system.includes('worker agent of task "cut"')).at(-1)!;
      const answered = new Set(last.canonical.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_result' ? [p.toolUseId] : []))));
      const calls = last.canonical.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_use' ? [p.id] : [])));
      expect(calls).toHaveLength(4);
      for (const id of calls) expect(answered.has(id), id).toBe(true);
    });
  });

  it('continues the same agent session for ask_agent follow-ups', async () => {
    const script = turnScript({
      'commander of task "q"': [
        callAgent('worker', 'find the number'),
        toolCall('ask_agent', { agent_id: 'worker', question: 'how sure are you?' }),
        (req) => taskComplete(lastToolResult(req)),
      ],
      'worker agent of task "q"': [{ text: '42' }, (req) => ({ text: `sure, I said ${JSON.stringify(req.canonical.messages[1])}` })],
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('q')}`);
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tasks.q.summary).toContain('42');
      const db = openDb(dir);
      expect(db.prepare("SELECT COUNT(*) AS n FROM sessions WHERE agent = 'worker'").get()).toEqual({ n: 1 });
      db.close();
    });
  });
});

describe('refusing to start', () => {
  it('refuses a workspace that is a file, and a cassette it cannot write, before any model is called', async () => {
    await withServer(() => ({ status: 500 }), async (server) => {
      const dir = missionProject(server, timeTask('t'));
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, 'afile'), 'not a folder');
      const workspace = await runCli(['run', dir, '--workspace', join(dir, 'afile')], { cwd: dir });
      expect(workspace.code).toBe(2);
      expect(workspace.stderr).toContain('is not a directory');
      expect(workspace.stderr).not.toContain('--debug');
      const record = await runCli(['run', dir, '--record', join(dir, 'afile', 'c.jsonl')], { cwd: dir });
      expect(record.code).toBe(2);
      expect(record.stderr).toMatch(/cannot write the cassette .*afile\/c\.jsonl/);
      expect(server.requests).toHaveLength(0);
      // Nothing is left behind looking like an interrupted run.
      const runs = await runCli(['runs', '--json'], { cwd: dir });
      expect(JSON.parse(runs.stdout).runs).toEqual([]);
    });
  });
});

describe('interrupts and hygiene', () => {
  it('stops cleanly on SIGINT with exit 130, and the run resumes to completion', async () => {
    let interrupted = false;
    let secondCalls = 0;
    const script = turnScript({
      ...simpleTask('first', [{ text: 'first ok' }]),
      'commander of task "second"': [
        // The first request is slow, so the interrupt lands while it is in flight.
        () => ({ ...callAgent('worker', 'second'), delayMs: secondCalls++ === 0 ? 3000 : 0 }),
        (req) => taskComplete(`second: ${JSON.parse(lastToolResult(req)).answer}`),
      ],
      'worker agent of task "second"': [{ text: 'second ok' }],
    });
    await withServer(script.respond, async (server) => {
      const dir = missionProject(server, `
${timeTask('first')}
  task "second" {
    depends_on = [tasks.first]
    objective  = "second"
    tools      = [builtins.utils.current_time]
  }`);
      server.onRequest = (_n, req) => {
        if (!interrupted && req.canonical.system.includes('commander of task "second"')) {
          interrupted = true;
          // The request is in flight (its reply is held): interrupt now.
          child?.kill('SIGINT');
        }
      };
      let child: import('node:child_process').ChildProcess | undefined;
      const first = await runCli(['run', dir], { cwd: dir, onSpawn: (c) => (child = c) });
      expect(first.code).toBe(130);
      const runId = /run (run_\w+)/.exec(first.stdout)![1]!;
      expect(first.stdout).toContain(`resume with: squadron resume ${runId}`);
      const db = openDb(dir);
      expect(db.prepare('SELECT status FROM runs').get()).toEqual({ status: 'interrupted' });
      db.close();

      const resumed = await runCli(['resume', runId, '--json'], { cwd: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      const doc = JSON.parse(resumed.stdout);
      expect(doc.tasks.first.summary).toBe('first: first ok');
      expect(doc.tasks.second.summary).toBe('second: second ok');
      // The first task was not run again.
      expect(server.requests.filter((r) => r.canonical.system.includes('commander of task "first"'))).toHaveLength(2);
    });
  });

  it('keeps secret variable values out of the database, the logs and recorded cassettes', async () => {
    const secret = 'sq-secret-value-91f3a7c2';
    const script = turnScript({
      ...simpleTask('leak', [(req) => ({ text: `the objective said: ${firstUserMessage(req)}` })]),
    });
    await withServer(script.respond, async (server) => {
      const dir = project(`
variable "token" {
  secret = true
}
model "fake" {
  provider = "anthropic"
  base_url = "${server.anthropicBaseURL}"
  api_key  = vars.token
}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
${timeTask('leak', 'Use the token $' + '{vars.token} carefully')}
}`);
      const cassette = join(dir, 'cassette.jsonl');
      const result = await runCli(['run', dir, '--json', '--record', cassette], { cwd: dir, env: { SQUADRON_VAR_token: secret } });
      expect(result.code, result.stderr).toBe(0);
      // The model really received it (the user put it in the objective)…
      expect(JSON.stringify(server.requests[0]!.canonical.messages)).toContain(secret);
      // …but nothing at rest holds it.
      const files = [join(dir, '.squadron', 'squadron.db'), cassette, ...readdirSync(join(dir, '.squadron', 'logs')).map((f) => join(dir, '.squadron', 'logs', f))];
      for (const file of files) {
        for (const suffix of ['', '-wal']) {
          let bytes: Buffer;
          try {
            bytes = readFileSync(file + suffix);
          } catch {
            continue;
          }
          expect(bytes.includes(Buffer.from(secret)), `${file}${suffix} contains the secret`).toBe(false);
        }
      }
      expect(readFileSync(cassette, 'utf8')).toContain('[REDACTED:vars.token]');
      expect(result.stdout).not.toContain(secret);
    });
  });
});
