// End-to-end: parallel iterated tasks through the CLI against the fake model server. One commander
// per item with the objective rendered for that item; items stored as units of work with their
// outputs; a failed item re-run from a fresh session; a failed smoke test stops the task before any
// other item; bad items refused at run start by index; kill -9 mid fan-out, then resume re-runs no
// completed item and finds each interrupted item's session again.

import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, openRunDb, removeProjects, runThenResume, storedEvents, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { firstUserMessage, lastToolResult, taskComplete, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 180_000 });
afterAll(removeProjects);

const ITEM_COMMANDER = 'commander of task "triage[';

function mission(model: string, iterator: string, items = 'bind_to = inputs.tickets'): string {
  return `${model}
mission "support" {
  commander { model = ${ANTHROPIC_MODEL} }
  max_parallel = 3
  input "tickets" {
    type    = "list"
    default = []
  }
  dataset "tickets" {
    description = "Support tickets from the help desk"
    ${items}
    schema = {
      id      = integer("ticket id", true)
      subject = string("subject", true)
    }
  }
  task "triage" {
    objective = "Triage ticket \${item.id}: \${item.subject} (item \${item_index})"
    tools     = [builtins.http.get]
    output = {
      priority = string("low, normal or high", true)
    }
    iterator {
      dataset = datasets.tickets
      parallel = true
      ${iterator}
    }
  }
}
`;
}

/** The item index named in an item commander's objective. */
function itemOf(request: FakeRequest): number {
  return Number(/\(item (\d+)\)/.exec(firstUserMessage(request))?.[1] ?? -1);
}

/** submit_output and task_complete in one turn: the item's priority is derived from its subject. */
function finishItem(request: FakeRequest): FakeReply {
  const text = firstUserMessage(request);
  const priority = /outage|down/i.test(text) ? 'high' : 'normal';
  return {
    toolCalls: [
      { name: 'submit_output', input: { output: { priority } } },
      { name: 'task_complete', input: { summary: `triaged as ${priority}` } },
    ],
  };
}

function tickets(n: number): { id: number; subject: string }[] {
  return Array.from({ length: n }, (_, i) => ({ id: 100 + i, subject: i % 3 === 0 ? `Site down #${i}` : `Question #${i}` }));
}

function writeTickets(dir: string, n: number): void {
  writeFileSync(join(dir, 'tickets.json'), JSON.stringify(tickets(n)));
}

interface ItemDbRow {
  idx: number;
  status: string;
  attempt: number;
  summary: string | null;
  output_json: string | null;
  error: string | null;
}

function itemRows(dir: string): ItemDbRow[] {
  const db = openRunDb(dir);
  try {
    return db.prepare("SELECT idx, status, attempt, summary, output_json, error FROM task_items WHERE task = 'triage' ORDER BY idx").all() as ItemDbRow[];
  } finally {
    db.close();
  }
}

/** The most items whose stored [started_at, finished_at] spans overlap at one moment. */
function maxOverlap(dir: string): number {
  const db = openRunDb(dir);
  try {
    const spans = db.prepare("SELECT started_at AS s, finished_at AS f FROM task_items WHERE task = 'triage'").all() as { s: string; f: string }[];
    const points = spans.flatMap((x) => [{ t: Date.parse(x.s), d: 1 }, { t: Date.parse(x.f), d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
    let now = 0;
    let max = 0;
    for (const p of points) max = Math.max(max, (now += p.d));
    return max;
  } finally {
    db.close();
  }
}

function sessionLabels(dir: string): string[] {
  const db = openRunDb(dir);
  try {
    return (db.prepare("SELECT task_name FROM sessions WHERE agent = 'commander' ORDER BY task_name").pluck().all() as string[]).sort();
  } finally {
    db.close();
  }
}

describe('parallel iterated tasks through the CLI', () => {
  it('runs one commander per item with its rendered objective, stores each item and reports the counts', async () => {
    // Each reply takes a while, so items would overlap if concurrency_limit did not hold them back.
    const script = turnScript({ [ITEM_COMMANDER]: [(req) => ({ ...finishItem(req), delayMs: 400 })] });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'concurrency_limit = 2') });
      writeTickets(dir, 5);
      const r = await runCli(['run', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      const objectives = server.requests.filter((q) => q.canonical.system.includes(ITEM_COMMANDER)).map(firstUserMessage).sort();
      expect(objectives).toEqual([0, 1, 2, 3, 4].map((i) => `Triage ticket ${100 + i}: ${tickets(5)[i]!.subject} (item ${i})`).sort());
      const rows = itemRows(dir);
      expect(rows.map((row) => [row.idx, row.status, row.attempt, JSON.parse(row.output_json ?? 'null')])).toEqual([
        [0, 'completed', 1, { priority: 'high' }],
        [1, 'completed', 1, { priority: 'normal' }],
        [2, 'completed', 1, { priority: 'normal' }],
        [3, 'completed', 1, { priority: 'high' }],
        [4, 'completed', 1, { priority: 'normal' }],
      ]);
      expect(sessionLabels(dir)).toEqual(['triage[0]', 'triage[1]', 'triage[2]', 'triage[3]', 'triage[4]']);
      expect(maxOverlap(dir)).toBeLessThanOrEqual(2);
      const doc = JSON.parse(r.stdout) as { status: string; tasks: Record<string, { status: string; summary: string; items?: Record<string, unknown> }> };
      expect(doc.tasks['triage']).toMatchObject({ status: 'completed', items: { total: 5, completed: 5, failed: 0 } });
      expect(doc.tasks['triage']!.summary).toContain('5 of 5 items succeeded, 0 failed');
      const finished = storedEvents<{ index: number; completed: number }>(dir, 'item.finished');
      expect(finished.map((e) => e.completed)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await server.close();
    }
  });

  it('max_parallel bounds the items at once below a larger concurrency_limit (an item is one unit of work)', async () => {
    const script = turnScript({ [ITEM_COMMANDER]: [(req) => ({ ...finishItem(req), delayMs: 400 })] });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      // max_parallel = 3 (the mission's), concurrency_limit = 10: three items at a time.
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'concurrency_limit = 10') });
      writeTickets(dir, 7);
      const r = await runCli(['run', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(maxOverlap(dir)).toBeLessThanOrEqual(3);
      expect(itemRows(dir).filter((row) => row.status === 'completed')).toHaveLength(7);
    } finally {
      await server.close();
    }
  });

  it('start_delay spaces the first launches: item k starts no sooner than k delays after item 0', async () => {
    const script = turnScript({ [ITEM_COMMANDER]: [finishItem] });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      // Room for all three at once: only the delay keeps them apart.
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'concurrency_limit = 3\n      start_delay = 800') });
      writeTickets(dir, 3);
      const r = await runCli(['run', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      const db = openRunDb(dir);
      const started = (db.prepare("SELECT started_at FROM task_items WHERE task = 'triage' ORDER BY idx").pluck().all() as string[]).map((t) => Date.parse(t));
      const taskStarted = Date.parse(db.prepare("SELECT started_at FROM tasks WHERE name = 'triage'").pluck().get() as string);
      db.close();
      // Lower bounds from the task's own start, which comes before every lane begins: a busy machine
      // can only make these longer. (Measured from item 0 they could shrink, when item 0 itself is slow
      // to record its start.)
      expect(started[1]! - taskStarted).toBeGreaterThanOrEqual(800);
      expect(started[2]! - taskStarted).toBeGreaterThanOrEqual(1600);
      expect(itemRows(dir).map((row) => row.status)).toEqual(['completed', 'completed', 'completed']);
    } finally {
      await server.close();
    }
  });

  it('re-runs a failed item from a fresh session (max_retries) and keeps the failed attempt readable', async () => {
    const failedOnce = new Set<number>();
    const script = turnScript({
      [ITEM_COMMANDER]: [
        (req) => {
          const index = itemOf(req);
          if (index === 1 && !failedOnce.has(index)) {
            failedOnce.add(index);
            return taskComplete('could not reach the CRM', { succeed: false, reason: 'CRM timed out' });
          }
          return finishItem(req);
        },
      ],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'max_retries = 1') });
      writeTickets(dir, 3);
      const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      // The retry's first request is a fresh conversation: the objective alone, no trace of the failed attempt.
      const item1 = server.requests.filter((q) => q.canonical.system.includes(ITEM_COMMANDER) && itemOf(q) === 1);
      expect(item1).toHaveLength(2);
      expect(item1.map((q) => q.canonical.messages.length)).toEqual([1, 1]);
      expect(itemRows(dir).map((row) => [row.idx, row.status, row.attempt])).toEqual([
        [0, 'completed', 1],
        [1, 'completed', 2],
        [2, 'completed', 1],
      ]);
      expect(sessionLabels(dir)).toEqual(['triage[0]', 'triage[1]', 'triage[1]#1', 'triage[2]']);
    } finally {
      await server.close();
    }
  });

  it('without retries a failed item is counted and the task still completes (on_failure = "continue")', async () => {
    const script = turnScript({
      [ITEM_COMMANDER]: [(req) => (itemOf(req) === 2 ? taskComplete('no', { succeed: false, reason: 'spam ticket' }) : finishItem(req))],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), '') });
      writeTickets(dir, 4);
      const r = await runCli(['run', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { tasks: Record<string, { summary: string; items: Record<string, unknown> }> };
      expect(doc.tasks['triage']!.summary).toContain('3 of 4 items succeeded, 1 failed. Failed items: 2.');
      expect(doc.tasks['triage']!.items).toMatchObject({ total: 4, completed: 3, failed: 1 });
      expect(itemRows(dir)[2]).toMatchObject({ status: 'failed', error: 'spam ticket' });

      const runId = JSON.parse(r.stdout).run_id as string;
      const human = await runCli(['inspect', runId, '--db', dir], { cwd: dir });
      expect(human.stdout).toContain('items: 3/4 ✓ 1 ✗');
      expect(human.stdout).toContain('[2] failed: spam ticket');
      const one = await runCli(['inspect', runId, '--db', dir, '--task', 'triage', '--item', '3', '--json', '--transcript'], { cwd: dir });
      expect(one.code, one.stderr).toBe(0);
      const doc1 = JSON.parse(one.stdout) as { tasks: { items: { total: number; list: Record<string, unknown>[] }; sessions: { label: string }[] }[] };
      expect(doc1.tasks[0]!.items.total).toBe(4);
      expect(doc1.tasks[0]!.items.list).toEqual([expect.objectContaining({ index: 3, status: 'completed', summary: 'triaged as high', output: { priority: 'high' } })]);
      expect(doc1.tasks[0]!.sessions.map((s) => s.label)).toEqual(['triage[3]']);
      const text = await runCli(['inspect', runId, '--db', dir, '--task', 'triage', '--item', '1'], { cwd: dir });
      expect(text.stdout).toContain('[1] completed');
      expect(text.stdout).toContain('"priority": "normal"');
      const missing = await runCli(['inspect', runId, '--db', dir, '--task', 'triage', '--item', '9'], { cwd: dir });
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('task "triage" has 4 items (0–3); there is no item 9');
    } finally {
      await server.close();
    }
  });

  it('a failed smoke test fails the task before any other item starts', async () => {
    const script = turnScript({ [ITEM_COMMANDER]: [() => taskComplete('no', { succeed: false, reason: 'the ticket API refused the token' })] });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'smoketest = true') });
      writeTickets(dir, 6);
      const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('the smoke test failed: item 0 failed (the ticket API refused the token); no other item was started');
      expect(server.requests.map(itemOf)).toEqual([0]);
      expect(itemRows(dir).map((row) => row.status)).toEqual(['failed', 'pending', 'pending', 'pending', 'pending', 'pending']);
    } finally {
      await server.close();
    }
  });

  it('on_failure = "stop" starts no item after a failure and fails the task with the counts', async () => {
    const script = turnScript({
      [ITEM_COMMANDER]: [(req) => (itemOf(req) === 1 ? taskComplete('no', { succeed: false, reason: 'ticket system offline' }) : finishItem(req))],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'concurrency_limit = 1\n      on_failure = "stop"') });
      writeTickets(dir, 6);
      const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('1 of 6 items succeeded, 1 failed, 4 not started (on_failure = "stop"): item 1 failed: ticket system offline');
      expect(server.requests.map(itemOf)).toEqual([0, 1]);
      expect(itemRows(dir).map((row) => row.status)).toEqual(['completed', 'failed', 'pending', 'pending', 'pending', 'pending']);
    } finally {
      await server.close();
    }
  });

  it('validate refuses a router on a parallel iterator, at its position', async () => {
    const dir = writeProject({
      'main.hcl': mission('model "fake" {\n  provider = "anthropic"\n  api_key  = "k"\n}\n', '').replace(
        /\n}\n$/,
        `
  task "escalate" {
    objective = "Escalate"
    tools     = [builtins.http.get]
  }
}
`,
      ).replace('    iterator {', '    router {\n      route {\n        target    = tasks.escalate\n        condition = "urgent"\n      }\n    }\n    iterator {'),
    });
    const r = await runCli(['validate', dir], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/main\.hcl:\d+:\d+: error\[ITR006\]/);
  });

  it('refuses to start when items do not match the schema, naming every bad item by index (nothing runs)', async () => {
    const server = await startFakeModelServer({ respond: () => ({ text: 'unused' }) });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), '') });
      writeFileSync(join(dir, 'tickets.json'), JSON.stringify([{ id: 1, subject: 'ok' }, { id: 'two', subject: 'x' }, { id: 3 }]));
      const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('2 dataset items do not match the schema; nothing ran');
      expect(r.stderr).toContain('dataset "tickets" item 1: item[1].id: expected an integer, got string "two"');
      expect(r.stderr).toContain('dataset "tickets" item 2: item[2].subject: required field is missing');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('kill -9 mid fan-out, then resume', () => {
  it('re-runs no completed item, continues the interrupted ones in their own sessions and completes the rest', async () => {
    const N = 12;
    let child: ChildProcess | undefined;
    let killed = false;
    let completedAtKill: number[] = [];
    let dirRef = '';
    const script = turnScript({
      [ITEM_COMMANDER]: [
        (req) => {
          if (!killed && itemOf(req) === 6) {
            killed = true;
            completedAtKill = itemRows(dirRef).filter((r) => r.status === 'completed').map((r) => r.idx);
            child?.kill('SIGKILL');
            return { text: 'never read', delayMs: 5_000 };
          }
          return finishItem(req);
        },
      ],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': mission(fakeModelBlock(server), 'concurrency_limit = 2', `items = ${JSON.stringify(tickets(N)).replace(/"(\w+)":/g, '$1 = ')}`) });
      dirRef = dir;
      const { first, resumed } = await runThenResume(dir, (c) => (child = c));
      expect(killed).toBe(true);
      expect(first.signal).toBe('SIGKILL');
      expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
      expect(script.problems).toEqual([]);
      expect(completedAtKill.length).toBeGreaterThan(0);
      const firstTurns = new Map<number, number>();
      for (const q of server.requests.filter((q) => q.canonical.system.includes(ITEM_COMMANDER))) {
        firstTurns.set(itemOf(q), (firstTurns.get(itemOf(q)) ?? 0) + 1);
      }
      // A completed item was asked once in all; only the items in flight at the kill were asked again.
      for (const index of completedAtKill) expect(firstTurns.get(index), `item ${index}`).toBe(1);
      expect(itemRows(dir).every((r) => r.status === 'completed' && r.attempt === 1)).toBe(true);
      expect(sessionLabels(dir)).toEqual(Array.from({ length: N }, (_, i) => `triage[${i}]`).sort());
    } finally {
      await server.close();
    }
  });
});

describe('query_task_output downstream of an iterated task', () => {
  function withReport(model: string): string {
    return mission(model, 'concurrency_limit = 10').replace(
      /\n}\n$/,
      `
  task "report" {
    objective  = "How many tickets are high priority?"
    tools      = [builtins.http.get]
    depends_on = [tasks.triage]
  }
}
`,
    );
  }

  async function runWith(n: number): Promise<{ first: FakeRequest; answer: string; tools: string[] }> {
    const script = turnScript({
      [ITEM_COMMANDER]: [finishItem],
      'commander of task "report"': [
        { toolCalls: [{ name: 'query_task_output', input: { task: 'triage', group_by: 'priority' } }] },
        { toolCalls: [{ name: 'query_task_output', input: { task: 'triage', where: [{ field: 'priority', value: 'high' }], fields: ['priority'], limit: 2, offset: 1 } }] },
        (req) => taskComplete(JSON.stringify(req.canonical.messages.slice(-3).map((m) => m.parts))),
      ],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'main.hcl': withReport(fakeModelBlock(server)) });
      writeTickets(dir, n);
      const r = await runCli(['run', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 170_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      const report = server.requests.filter((q) => q.canonical.system.includes('commander of task "report"'));
      const doc = JSON.parse(r.stdout) as { tasks: Record<string, { summary: string }> };
      return { first: report[0]!, answer: doc.tasks['report']!.summary, tools: report[0]!.canonical.tools.map((t) => t.name) };
    } finally {
      await server.close();
    }
  }

  it('shows a digest of fixed size, and answers filters, picks, pages and group counts through the tool', async () => {
    const small = await runWith(10);
    const large = await runWith(100);
    expect(small.tools).toContain('query_task_output');
    expect(small.first.canonical.system).toContain('Iterated over 10 items: 10 completed, 0 failed.');
    expect(small.first.canonical.system).toContain('priority (string, required)');
    expect(large.first.canonical.system).toContain('Iterated over 100 items: 100 completed, 0 failed.');
    // Items 0 and 3 are the 'high' ones in both runs: counts per value, then page 2 of the high ones.
    expect(small.answer).toContain('{\\"matching\\":10,\\"group_by\\":\\"priority\\",\\"counts\\":{\\"normal\\":6,\\"high\\":4}}');
    expect(large.answer).toContain('\\"counts\\":{\\"normal\\":66,\\"high\\":34}');
    expect(small.answer).toContain('{\\"matching\\":4,\\"offset\\":1,\\"items\\":[{\\"index\\":3,\\"status\\":\\"completed\\",\\"output\\":{\\"priority\\":\\"high\\"}},{\\"index\\":6');
    expect(small.answer).toContain('\\"next_offset\\":3');
    const bytes = (q: FakeRequest): number => JSON.stringify(q.body).length;
    // Ten times the items: the downstream commander's first request grows by a digit or two, not by items.
    expect(Math.abs(bytes(large.first) - bytes(small.first))).toBeLessThan(16);
  });
});

describe('query_task_output downstream of a task that ran once', () => {
  it('answers with its summary and picked output fields, and refuses item filters there', async () => {
    const results: string[] = [];
    const script = turnScript({
      'commander of task "gather"': [
        { toolCalls: [{ name: 'submit_output', input: { output: { open: 12, oldest: 'ticket 4' } } }] },
        taskComplete('counted the open tickets'),
      ],
      'commander of task "report"': [
        { toolCalls: [{ name: 'query_task_output', input: { task: 'gather', fields: ['open'] } }] },
        (req) => {
          results.push(lastToolResult(req));
          return { toolCalls: [{ name: 'query_task_output', input: { task: 'gather', count: true } }] };
        },
        (req) => {
          results.push(lastToolResult(req));
          return taskComplete('reported');
        },
      ],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const hcl = `${fakeModelBlock(server)}
mission "support" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "gather" {
    objective = "Count the open tickets"
    tools     = [builtins.http.get]
    output = {
      open   = integer("open tickets", true)
      oldest = string("the oldest ticket", true)
    }
  }
  task "report" {
    objective  = "Report how many tickets are open"
    tools      = [builtins.http.get]
    depends_on = [tasks.gather]
  }
}
`;
      const dir = writeProject({ 'main.hcl': hcl });
      const r = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      expect(JSON.parse(results[0]!)).toEqual({ task: 'gather', status: 'completed', summary: 'counted the open tickets', output: { open: 12 } });
      expect(results[1]).toContain('Task "gather" ran once, not over items: item, where, count and group_by do not apply.');
    } finally {
      await server.close();
    }
  });
});

describe('plan downstream of an iterated task', () => {
  it('shows the digest the downstream commander will receive, of a size that does not grow with the items', async () => {
    // No model is called: the block needs no server behind it.
    const hcl = mission('model "fake" {\n  provider = "anthropic"\n  api_key  = "test-key-123"\n}', 'concurrency_limit = 10').replace(
      /\n}\n$/,
      '\n  task "report" {\n    objective  = "How many tickets are high priority?"\n    tools      = [builtins.http.get]\n    depends_on = [tasks.triage]\n  }\n}\n',
    );
    const dir = writeProject({ 'main.hcl': hcl });
    type Planned = { tasks: { name: string; upstream_digests?: { task: string; items: number | null; bytes: number; max_bytes: number }[]; commander: { system_prompt: string } }[] };
    const digestAt = async (n: number): Promise<{ digest: NonNullable<Planned['tasks'][0]['upstream_digests']>[0]; prompt: string; text: string }> => {
      writeTickets(dir, n);
      const json = await runCli(['plan', dir, '--json', '--show-prompt', '--task', 'report', '-i', 'tickets=@tickets.json'], { cwd: dir });
      expect(json.code, json.stderr).toBe(0);
      const task = (JSON.parse(json.stdout) as Planned).tasks[0]!;
      const text = await runCli(['plan', dir, '--task', 'report', '-i', 'tickets=@tickets.json'], { cwd: dir });
      return { digest: task.upstream_digests![0]!, prompt: task.commander.system_prompt, text: text.stdout };
    };
    const small = await digestAt(10);
    const large = await digestAt(1000);
    expect(small.digest).toMatchObject({ task: 'triage', items: 10 });
    expect(large.digest).toMatchObject({ task: 'triage', items: 1000 });
    expect(small.prompt).toContain('Iterated over 10 items: 10 completed, 0 failed.');
    expect(small.prompt).toContain("Each item's output has the fields: priority (string, required).");
    expect(large.prompt).toContain('Iterated over 1000 items');
    // A hundred times the items: two more digits in the counts, the same bound.
    expect(large.digest.bytes - small.digest.bytes).toBe(4);
    expect(large.digest.max_bytes).toBe(small.digest.max_bytes);
    expect(small.digest.max_bytes).toBeLessThanOrEqual(4096);
    expect(small.text).toContain(`upstream   triage: a digest of its 10 items in the prompt, ${small.digest.bytes} bytes (at most ${small.digest.max_bytes.toLocaleString('en-US')}`);
  });
});

describe('sequential iterated tasks through the CLI', () => {
  it('one commander walks the items with dataset_next, must submit each output before moving on, and each item is stored', async () => {
    const seen: string[] = [];
    const respond = (req: FakeRequest): FakeReply => {
      const last = lastToolResultText(req);
      seen.push(last);
      if (last === '' || last === '{"status":"ok"}') return { toolCalls: [{ name: 'dataset_next', input: {} }] };
      if (last.startsWith('{"status":"ok"')) {
        const taken = JSON.parse(last) as { index: number; item: { subject: string } };
        // Item 1: try to move on without submitting first (refused), then submit.
        if (taken.index === 1 && !seen.some((s) => s.startsWith('Call submit_output'))) return { toolCalls: [{ name: 'dataset_next', input: {} }] };
        return { toolCalls: [{ name: 'submit_output', input: { output: { priority: /down/i.test(taken.item.subject) ? 'high' : 'normal' } } }] };
      }
      if (last.startsWith('Call submit_output')) return { toolCalls: [{ name: 'submit_output', input: { output: { priority: 'normal' } } }] };
      if (last.startsWith('{"status":"exhausted"')) return { toolCalls: [{ name: 'task_complete', input: { summary: 'all tickets triaged' } }] };
      return { status: 400, errorMessage: `unexpected ${last}` };
    };
    const server = await startFakeModelServer({ respond });
    try {
      const hcl = mission(fakeModelBlock(server), '')
        .replace(/objective = "[^"]*"/, 'objective = "Triage every ticket"')
        .replace('parallel = true', 'parallel = false');
      const dir = writeProject({ 'main.hcl': hcl });
      writeTickets(dir, 3);
      const r = await runCli(['run', dir, '--json', '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(seen.some((s) => s === 'Call submit_output with the output of item 1 before taking the next item.')).toBe(true);
      expect(server.requests.every((q) => q.canonical.system.includes('commander of task "triage"'))).toBe(true);
      expect(server.requests[0]!.canonical.system).toContain('This task runs over the 3 items of dataset "tickets"');
      // As in Go, the walking commander is told what the dataset is and what its items hold.
      expect(server.requests[0]!.canonical.system).toContain(
        'The dataset: Support tickets from the help desk Each item has the fields: id (integer, required): ticket id; subject (string, required): subject.',
      );
      expect(itemRows(dir).map((row) => [row.idx, row.status, JSON.parse(row.output_json ?? 'null')])).toEqual([
        [0, 'completed', { priority: 'high' }],
        [1, 'completed', { priority: 'normal' }],
        [2, 'completed', { priority: 'normal' }],
      ]);
      expect(sessionLabels(dir)).toEqual(['triage']);
      const doc = JSON.parse(r.stdout) as { tasks: Record<string, { summary: string }> };
      expect(doc.tasks['triage']!.summary).toContain('all tickets triaged\n(3 of 3 items processed');

      // plan shows the same commander: dataset_next among its tools, the walk in its prompt.
      const plan = await runCli(['plan', dir, '--json', '--show-prompt', '-i', 'tickets=@tickets.json'], { cwd: dir });
      const planned = JSON.parse(plan.stdout) as { tasks: { commander: { tools: string[]; system_prompt: string } }[] };
      expect(planned.tasks[0]!.commander.tools).toEqual(['dataset_next', 'call_agent', 'ask_agent', 'submit_output', 'task_complete']);
      expect(planned.tasks[0]!.commander.system_prompt).toContain('This task runs over the 3 items of dataset "tickets"');
      expect(planned.tasks[0]!.commander.system_prompt).toBe(server.requests[0]!.canonical.system);
    } finally {
      await server.close();
    }
  });
});

function lastToolResultText(request: FakeRequest): string {
  const last = request.canonical.messages.at(-1);
  const part = last?.parts.find((p) => p.type === 'tool_result');
  return part && part.type === 'tool_result' ? part.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
}
