// End-to-end: budgets are enforced before each model call. A call that could take a budget past its
// limit is never sent; the run ends `stopped` (exit 3) naming the budget, spent and limit; the totals
// come back from the stored turns after kill -9; `resume --budget` continues the same sessions with a
// raised limit; N parallel tasks under a dollar cap never spend more than the cap.

import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, openRunDb, removeProjects, storedEvents, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

/**
 * Output is what costs: $1,000 per million output tokens ($0.001 a token), input almost nothing. With
 * max_output_tokens = 1000 every call reserves a little over $1.00; each reply below reports 500
 * output tokens, so each call settles at a little over $0.50.
 */
function pricedModel(server: FakeModelServer): string {
  return `model "fake" {
  provider          = "anthropic"
  base_url          = "${server.anthropicBaseURL}"
  api_key           = "test-key-123"
  max_output_tokens = 1000
  pricing "claude_sonnet_4_6" {
    input       = 0.001
    output      = 1000
    cache_read  = 0.001
    cache_write = 0.001
  }
}
`;
}

const USAGE = { inputTokens: 100, outputTokens: 500 };
const withUsage = (reply: FakeReply): FakeReply => ({ ...reply, usage: USAGE });

/** Commander: one call to the worker, then task_complete with its answer. Worker: four time zones, then "done". */
function script() {
  const zones = ['UTC', 'Europe/Paris', 'Asia/Tokyo', 'America/New_York'];
  return turnScript({
    [commanderOf('clock')]: [withUsage(callAgent('worker', 'Tell the time in four zones')), (req: FakeRequest) => withUsage(taskComplete(`times: ${lastToolResult(req)}`))],
    [workerOf('clock')]: [...zones.map((timezone) => withUsage(toolCall('builtins_utils_current_time', { timezone }))), withUsage({ text: 'done' })],
  });
}

function project(server: FakeModelServer, dollars: number): string {
  return writeProject({
    'main.hcl': `${pricedModel(server)}
mission "m" {
  budget {
    dollars = ${dollars}
  }
  commander { model = ${ANTHROPIC_MODEL} }
  task "clock" {
    objective = "Tell the time."
    tools     = [builtins.utils.current_time]
  }
}
`,
  });
}

function runRow(dir: string): { id: string; status: string; error: string | null; cost: number; turns: number } {
  const db = openRunDb(dir);
  try {
    const run = db.prepare('SELECT id, status, error FROM runs').get() as { id: string; status: string; error: string | null };
    const t = db.prepare('SELECT COALESCE(SUM(cost_usd), 0) AS cost, COUNT(*) AS turns FROM model_turns').get() as { cost: number; turns: number };
    return { ...run, ...t };
  } finally {
    db.close();
  }
}

describe('budgets', () => {
  it('stops a run before the call that could pass the limit (exit 3), and resume --budget continues the same sessions', async () => {
    const turns = script();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server, 3);
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(3);
      // Four calls fit ($0.50 settled each, $1.00 reserved); the fifth would have reached $3.00 + input.
      expect(server.requests.length).toBe(4);
      expect(first.stdout).toContain('mission m stopped');
      expect(first.stdout).toContain('stopped: the mission budget cannot afford the next model call: $2.0000 spent of $3.0000, and the call may cost up to $1.0000');
      expect(first.stdout).toContain('budget of the mission: $2.0000 of $3');
      expect(first.stdout).toMatch(/to continue with a higher limit: squadron resume run_\w+ .*--budget dollars=N/);
      const stopped = runRow(dir);
      expect(stopped.status).toBe('stopped');
      expect(stopped.turns).toBe(4);
      expect(stopped.cost).toBeLessThanOrEqual(3);
      const exceeded = storedEvents<{ scope: string; kind: string; limit: number }>(dir, 'budget.exceeded');
      expect(exceeded.map((e) => [e.scope, e.kind, e.limit])).toEqual([['mission', 'dollars', 3]]);

      const json = await runCli(['runs', '--json'], { cwd: dir });
      const listed = JSON.parse(json.stdout).runs[0];
      expect(listed.status).toBe('stopped');
      expect(listed.budget.limits).toEqual({ dollars: 3 });
      // The budget is read from the run's row, not found in its events.
      const db = new Database(join(dir, '.squadron', 'squadron.db'));
      db.prepare("DELETE FROM events WHERE type = 'budget.limits'").run();
      db.close();
      const fromRow = JSON.parse((await runCli(['runs', '--json'], { cwd: dir })).stdout).runs[0];
      expect(fromRow.budget).toMatchObject({ scope: 'mission', limits: { dollars: 3 }, spent: { dollars: listed.budget.spent.dollars } });
      expect(fromRow.budget.spent.duration).toBeGreaterThan(0);

      // $4.30: the remaining three calls fit, and the last one passes 80% ($3.44): one warning.
      const resumed = await runCli(['resume', stopped.id, '--budget', 'dollars=4.3'], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(server.requests.length).toBe(7);
      // The worker went on in its own conversation: its fifth request holds its four earlier turns.
      const workerRequests = server.requests.filter((r) => r.canonical.system.includes(workerOf('clock')));
      expect(workerRequests.map((r) => r.canonical.messages.filter((m) => m.role === 'assistant').length)).toEqual([0, 1, 2, 3, 4]);
      const done = runRow(dir);
      expect(done.status).toBe('completed');
      expect(done.turns).toBe(7);
      expect(done.cost).toBeCloseTo(3.5, 4);
      expect(storedEvents<{ limits: unknown }>(dir, 'budget.raised').map((e) => e.limits)).toEqual([{ mission: { dollars: 4.3 } }]);
      expect(storedEvents<{ scope: string; kind: string }>(dir, 'budget.warning').map((e) => [e.scope, e.kind])).toEqual([['mission', 'dollars']]);

      const shown = await runCli(['inspect', stopped.id], { cwd: dir });
      expect(shown.stdout).toContain('budget of the mission: $3.5000 of $4.3');
      expect(shown.stdout).toMatch(/budget\.exceeded \(clock\) at .*: the mission budget cannot afford the next model call/);
      expect(shown.stdout).toContain('resumed with raised limits: mission dollars $4.3');
    });
  });

  it('kill -9 then resume keeps the same totals: the resumed run stops where an uninterrupted one would', async () => {
    const turns = script();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server, 3);
      let child: ChildProcess | undefined;
      server.onRequest = (n) => {
        if (n === 3) child?.kill('SIGKILL');
      };
      const killed = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000, onSpawn: (c) => (child = c) });
      server.onRequest = undefined;
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const before = runRow(dir);
      expect(before.turns).toBe(2);

      const resumed = await runCli(['resume', before.id], { cwd: dir, timeoutMs: 120_000 });
      // $1.00 was spent before the kill: the re-sent third call and the fourth fit, the fifth does not.
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(3);
      expect(server.requests.length).toBe(5);
      expect(resumed.stdout).toContain('$2.0000 spent of $3.0000');
      const after = runRow(dir);
      expect(after.status).toBe('stopped');
      expect(after.turns).toBe(4);
      expect(after.cost).toBeLessThanOrEqual(3);
    });
  });

  it('plan shows the mission budget and a task budget, in text and JSON', async () => {
    const dir = writeProject({
      'main.hcl': `model "fake" {\n  provider = "anthropic"\n  api_key  = "k"\n}\nmission "m" {\n  budget {\n    dollars  = 5\n    duration = "45m"\n  }\n  commander { model = ${ANTHROPIC_MODEL} }\n  task "clock" {\n    objective = "Tell the time."\n    tools     = [builtins.utils.current_time]\n    budget {\n      tokens = 200000\n    }\n  }\n}\n`,
    });
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('mission m · 1 task · budget $5 · 45m');
    expect(text.stdout).toContain('  budget     200,000 tokens (every session of the task)');
    const json = JSON.parse((await runCli(['plan', dir, '--json'], { cwd: dir })).stdout);
    expect(json.budget).toEqual({ dollars: 5, duration_ms: 2_700_000 });
    expect(json.tasks[0].budget).toEqual({ tokens: 200000 });
  });

  it('a budget smaller than one call reserves: validate warns at the budget (MOD006), plan shows the bound and warns', async () => {
    const dir = writeProject({
      'main.hcl': `model "fake" {\n  provider = "anthropic"\n  api_key  = "k"\n}\nmission "m" {\n  budget {\n    tokens = 5000\n  }\n  commander { model = ${ANTHROPIC_MODEL} }\n  task "clock" {\n    objective = "Tell the time."\n    tools     = [builtins.utils.current_time]\n  }\n}\n`,
    });
    const validate = await runCli(['validate', dir, '--offline'], { cwd: dir });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toMatch(/main\.hcl:6:3: warning\[MOD006\]: mission "m" allows 5,000 tokens, less than one call of models\.fake\.claude_sonnet_4_6 reserves \(at least its 8,192 output tokens/);
    const text = await runCli(['plan', dir], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    const line = /first call reserves up to ([\d,]+) tokens · \$([\d.]+) of the budget/.exec(text.stdout);
    expect(line, text.stdout).not.toBeNull();
    const tokens = Number(line![1]!.replace(/,/g, ''));
    expect(tokens).toBeGreaterThan(8192);
    expect(text.stdout).toContain(`warning: the budget of the mission (5,000 tokens < ${line![1]}) is smaller than what the first call of task clock reserves: the run stops before that call`);
    const json = JSON.parse((await runCli(['plan', dir, '--json'], { cwd: dir })).stdout);
    expect(json.tasks[0].commander.first_call.tokens).toBe(tokens);
    expect(json.budget_warnings).toHaveLength(1);
    // A budget that holds the call: no warning.
    const roomy = writeProject({ 'main.hcl': readFileSync(join(dir, 'main.hcl'), 'utf8').replace('tokens = 5000', 'tokens = 200000') });
    expect((await runCli(['validate', roomy, '--offline'], { cwd: roomy })).stderr).not.toContain('MOD006');
    expect((await runCli(['plan', roomy], { cwd: roomy })).stdout).not.toContain('warning:');
  });

  it('rejects a malformed --budget before touching the run', async () => {
    const result = await runCli(['resume', 'run_x', '--budget', 'euros=5'], { cwd: writeProject({ 'x.txt': '' }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--budget "euros=5": expected dollars=N, tokens=N or duration=45m');
  });
});

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parallel tasks under a dollar cap', () => {
  const TASKS = 8;
  const CAP = 4;
  for (const seed of [1, 2, 3]) {
    it(`never spend more than the cap together (seed ${seed})`, async () => {
      const next = random(seed);
      const rules: Record<string, ((req: FakeRequest) => FakeReply)[]> = {};
      for (let i = 0; i < TASKS; i++) {
        rules[commanderOf(`t${i}`)] = [() => callAgent('worker', 'Answer'), (req) => taskComplete(lastToolResult(req))];
        rules[workerOf(`t${i}`)] = [() => ({ text: `answer ${i}` })];
      }
      const turns = turnScript(rules);
      // Any usage a real call could report (output up to max_tokens), and latencies that interleave the tasks.
      const respond = (req: FakeRequest): FakeReply => ({
        ...turns.respond(req),
        usage: { inputTokens: Math.floor(next() * 2000), outputTokens: Math.floor(next() * 1001) },
        delayMs: Math.floor(next() * 40),
      });
      await withFakeModelServer(respond, async (server) => {
        const tasks = Array.from({ length: TASKS }, (_, i) => `  task "t${i}" {\n    objective = "Answer ${i}."\n    tools     = [builtins.utils.current_time]\n  }`).join('\n');
        const dir = writeProject({
          'main.hcl': `${pricedModel(server)}
mission "m" {
  max_parallel = ${TASKS}
  budget {
    dollars = ${CAP}
  }
  commander { model = ${ANTHROPIC_MODEL} }
${tasks}
}
`,
        });
        const result = await runCli(['run', dir, '--json'], { cwd: dir, timeoutMs: 120_000 });
        expect([0, 3], result.stderr).toContain(result.code);
        expect(turns.problems).toEqual([]);
        const row = runRow(dir);
        expect(row.cost).toBeLessThanOrEqual(CAP + 1e-9);
        expect(JSON.parse(result.stdout).usage.cost_usd).toBeLessThanOrEqual(CAP);
        // 24 calls could cost up to $24: the cap must have stopped this run, with the budget named.
        expect(row.status).toBe('stopped');
        expect(JSON.parse(result.stdout).error_code).toBe('budget_exceeded');
        // Every call sent was stored: none was refused after being sent.
        expect(server.requests.length).toBe(row.turns);
      });
    });
  }
});
