// Budgets across runners on one PostgreSQL database: a budgeted run's tasks are taken by `squadron
// worker` processes like any other run's, and every runner reserves against the same totals (in the
// database, under a lock on the run), so together they never pass a dollar cap; the run ends stopped
// (exit 3 for a `run` in the terminal) naming the budget, whichever runner hit it. A task's own budget
// holds on the runner that runs it. A worker killed with SIGKILL while its call holds a reservation
// does not leak it: once its unit is taken over the reservation stops counting, so the run can still
// spend up to its cap and completes.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, type FakeRequest, startFakeModelServer } from '../support/fakeModelServer.js';
import { usePostgres } from '../support/postgres.js';
import { query, startWorker, waitFor, type Worker } from '../support/workerProcess.js';
import { callAgent, lastToolResult, taskComplete, turnScript } from '../support/turnScript.js';

const server = usePostgres();
afterAll(removeProjects);

/**
 * Output is what costs: $0.001 a token. With max_output_tokens = 1000 every call reserves a little
 * over $1.00, and settles at what its reply reports.
 */
function pricedModel(models: FakeModelServer): string {
  return `model "fake" {
  provider          = "anthropic"
  base_url          = "${models.anthropicBaseURL}"
  api_key           = "k"
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

function project(models: FakeModelServer, tasks: string[], opts: { cap?: number; taskBudget?: { task: string; dollars: number } }): string {
  const body = tasks
    .map((t) => {
      const budget = opts.taskBudget?.task === t ? `\n    budget {\n      dollars = ${opts.taskBudget.dollars}\n    }` : '';
      return `  task "${t}" {\n    objective = "Answer ${t}."\n    tools     = [builtins.utils.current_time]${budget}\n  }\n`;
    })
    .join('');
  const cap = opts.cap === undefined ? '' : `  budget {\n    dollars = ${opts.cap}\n  }\n`;
  return writeProject({
    'main.hcl': `${pricedModel(models)}
mission "m" {
  max_parallel = ${tasks.length}
${cap}  commander { model = ${ANTHROPIC_MODEL} }
${body}}
`,
  });
}

/** The run's status once it is no longer queued or running. */
function finalStatus(url: string, runId: string): Promise<string> {
  return waitFor(`run ${runId} to end`, async () => {
    const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
    const status = rows[0]?.status;
    return status === undefined || status === 'running' || status === 'queued' ? undefined : status;
  });
}

async function spend(url: string, runId: string): Promise<{ cost: number; turns: number }> {
  const rows = await query<{ cost: number; turns: string }>(url, 'SELECT COALESCE(SUM(cost_usd), 0)::float8 AS cost, COUNT(*)::text AS turns FROM model_turns WHERE run_id = $1', [runId]);
  return { cost: Number(rows[0]?.cost), turns: Number(rows[0]?.turns) };
}

/** The distinct lease owners that ran the run's tasks, from `inspect --json`. */
async function taskRunners(dir: string, url: string, runId: string): Promise<Set<string>> {
  const shown = await runCli(['inspect', runId, '--db', url, '--json'], { cwd: dir });
  expect(shown.code, shown.stderr).toBe(0);
  const doc = JSON.parse(shown.stdout) as { tasks: { name: string; runner?: { id: string } }[] };
  return new Set(doc.tasks.flatMap((t) => (t.runner ? [t.runner.id] : [])));
}

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

/** Each task: the commander calls its worker, which answers; then the commander completes. Random usage and latency. */
function randomScript(tasks: string[], seed: number) {
  const next = random(seed);
  const rules: Record<string, ((req: FakeRequest) => FakeReply)[]> = {};
  for (const t of tasks) {
    rules[commanderOf(t)] = [() => callAgent('worker', 'Answer'), (req) => taskComplete(lastToolResult(req))];
    rules[workerOf(t)] = [() => ({ text: `answer ${t}` })];
  }
  const turns = turnScript(rules);
  const respond = (req: FakeRequest): FakeReply => ({
    ...turns.respond(req),
    usage: { inputTokens: Math.floor(next() * 2000), outputTokens: Math.floor(next() * 1001) },
    delayMs: 100 + Math.floor(next() * 300),
  });
  return { turns, respond };
}

const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];
const CAP = 4;

describe('budgets across runners', () => {
  for (const seed of [1, 2]) {
    it(`a detached budgeted run over three workers never passes its dollar cap, and stops naming the budget (seed ${seed})`, async () => {
      const url = await server().createDatabase();
      const { turns, respond } = randomScript(TASKS, seed);
      const models = await startFakeModelServer({ respond });
      const workers: Worker[] = [];
      try {
        const dir = project(models, TASKS, { cap: CAP });
        const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
        expect(queued.code, queued.stderr).toBe(0);
        const runId = /^run (run_\w+)$/m.exec(queued.stdout)![1]!;
        for (let i = 0; i < 3; i++) workers.push(startWorker(dir, url, 2));
        expect(await finalStatus(url, runId)).toBe('stopped');
        expect(turns.problems).toEqual([]);
        const { cost, turns: stored } = await spend(url, runId);
        expect(cost).toBeLessThanOrEqual(CAP + 1e-9);
        // Every call sent was stored: none was refused after being sent.
        expect(models.requests.length).toBe(stored);
        const run = (await query<{ error: string }>(url, 'SELECT error FROM runs WHERE id = $1', [runId]))[0];
        expect(run?.error).toMatch(/^the mission budget cannot afford the next model call: \$\d\.\d{4} spent/);
        // The tasks were spread over the workers, not kept in the coordinator.
        const runners = await taskRunners(dir, url, runId);
        expect(runners.size).toBeGreaterThan(1);
        for (const id of runners) expect(id).toMatch(/^wrk_/);
        // No reservation outlives the run.
        expect(await query(url, 'SELECT 1 FROM budget_reservations WHERE run_id = $1 AND EXISTS (SELECT 1 FROM leases l WHERE l.run_id = $1)', [runId])).toEqual([]);
        for (const w of workers) w.child.kill('SIGTERM');
        for (const w of workers) expect(await w.exited, w.out()).toBe(0);
      } finally {
        for (const w of workers) w.child.kill('SIGKILL');
        await models.close();
      }
    }, 480_000);
  }

  it('a budgeted `run` in the terminal shares its tasks with the workers and exits 3 naming the budget (seed 3)', async () => {
    const url = await server().createDatabase();
    const { respond } = randomScript(TASKS, 3);
    const models = await startFakeModelServer({ respond });
    const workers: Worker[] = [];
    try {
      const dir = project(models, TASKS, { cap: CAP });
      for (let i = 0; i < 2; i++) workers.push(startWorker(dir, url, 2));
      const result = await runCli(['run', dir, '--db', url], { cwd: dir, timeoutMs: 300_000 });
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout + result.stderr).toContain('the mission budget cannot afford the next model call');
      const runId = /^run (run_\w+)$/m.exec(result.stdout)![1]!;
      const { cost, turns } = await spend(url, runId);
      expect(cost).toBeLessThanOrEqual(CAP + 1e-9);
      expect(models.requests.length).toBe(turns);
      const runners = await taskRunners(dir, url, runId);
      expect([...runners].some((id) => id.startsWith('wrk_')), [...runners].join(' ')).toBe(true);
      expect(runners.size).toBeGreaterThan(1);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await models.close();
    }
  }, 480_000);

  it("a task's own budget stops that task on the worker that runs it; the others complete and the run ends stopped", async () => {
    const url = await server().createDatabase();
    const tasks = ['big', 'a', 'b'];
    const rules: Record<string, ((req: FakeRequest) => FakeReply)[]> = {};
    for (const t of tasks) {
      rules[commanderOf(t)] = [() => callAgent('worker', 'Answer'), (req) => taskComplete(lastToolResult(req))];
      rules[workerOf(t)] = [() => ({ text: `answer ${t}` })];
    }
    const turns = turnScript(rules);
    // Every call settles at $0.50 and reserves a little over $1: "big" ($1.20) affords one call.
    const models = await startFakeModelServer({ respond: (req) => ({ ...turns.respond(req), usage: { inputTokens: 100, outputTokens: 500 }, delayMs: 100 }) });
    const workers: Worker[] = [];
    try {
      const dir = project(models, tasks, { taskBudget: { task: 'big', dollars: 1.2 } });
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)![1]!;
      for (let i = 0; i < 2; i++) workers.push(startWorker(dir, url, 2));
      expect(await finalStatus(url, runId)).toBe('stopped');
      const run = (await query<{ error: string }>(url, 'SELECT error FROM runs WHERE id = $1', [runId]))[0];
      expect(run?.error).toMatch(/^the budget of task "big" cannot afford the next model call: \$0\.50\d\d spent of \$1\.2000, and the call may cost up to \$1\.00\d\d$/);
      const rows = await query<{ name: string; status: string }>(url, 'SELECT name, status FROM tasks WHERE run_id = $1 ORDER BY name', [runId]);
      expect(rows.map((r) => `${r.name}:${r.status}`)).toEqual(['a:completed', 'b:completed', 'big:cancelled']);
      const big = await query<{ cost: number }>(url, "SELECT COALESCE(SUM(cost_usd), 0)::float8 AS cost FROM model_turns WHERE run_id = $1 AND task_name = 'big'", [runId]);
      expect(Number(big[0]?.cost)).toBeLessThanOrEqual(1.2);
      const units = await query<{ state: string; outcome: { status: string; stop: { scope: string } } }>(url, "SELECT state, outcome_json AS outcome FROM work_units WHERE run_id = $1 AND kind = 'task' AND task = 'big'", [runId]);
      expect(units).toEqual([{ state: 'done', outcome: expect.objectContaining({ status: 'stopped', stop: expect.objectContaining({ scope: 'big', kind: 'dollars' }) }) }]);
      expect(workers.some((w) => /^finished task big of run_\w+: stopped$/m.test(w.out()))).toBe(true);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await models.close();
    }
  }, 480_000);

  it('a worker killed with SIGKILL while its call holds a reservation leaks nothing: the run spends up to its cap and completes', async () => {
    const url = await server().createDatabase();
    const tasks = ['t1', 't2', 't3', 't4'];
    const rules: Record<string, ((req: FakeRequest) => FakeReply)[]> = {};
    for (const t of tasks) rules[commanderOf(t)] = [() => taskComplete(`done ${t}`)];
    const turns = turnScript(rules);
    // One call per task, settling at $0.50 and reserving a little over $1. Under a $3.20 cap the four
    // calls fit ($2.00 settled, one reservation at a time at the end) — but not with a leaked
    // reservation beside them ($1.50 + $1 leaked + $1 > $3.20: the last call would wait for ever).
    const models = await startFakeModelServer({ respond: (req) => ({ ...turns.respond(req), usage: { inputTokens: 100, outputTokens: 500 }, delayMs: 1_500 }) });
    const workers: Worker[] = [];
    try {
      const dir = project(models, tasks, { cap: 3.2 });
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)![1]!;
      for (let i = 0; i < 3; i++) workers.push(startWorker(dir, url, 1));
      // The first worker seen holding a reservation for its task unit is killed while its call is in flight.
      const pids = new Map(workers.map((w) => [w.child.pid, w]));
      const victimPid = await waitFor('a worker to hold a reservation', async () => {
        const rows = await query<{ pid: number }>(url, 'SELECT u.pid::int AS pid FROM budget_reservations r JOIN work_units u ON u.id = r.unit_id AND u.owner = r.owner WHERE r.run_id = $1', [runId]);
        return rows.map((r) => r.pid).find((pid) => pids.has(pid));
      });
      const victim = pids.get(victimPid)!;
      victim.child.kill('SIGKILL');
      await victim.exited;
      expect(await finalStatus(url, runId)).toBe('completed');
      const rows = await query<{ name: string; status: string }>(url, 'SELECT name, status FROM tasks WHERE run_id = $1 ORDER BY name', [runId]);
      expect(rows.map((r) => `${r.name}:${r.status}`)).toEqual(tasks.map((t) => `${t}:completed`));
      const { cost } = await spend(url, runId);
      expect(cost).toBeLessThanOrEqual(3.2);
      // The victim's unit was taken over by another worker.
      const claims = await query<{ claims: string }>(url, "SELECT claims::text FROM work_units WHERE run_id = $1 AND kind = 'task'", [runId]);
      expect(claims.some((u) => Number(u.claims) > 1)).toBe(true);
      for (const w of workers) if (w !== victim) w.child.kill('SIGTERM');
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await models.close();
    }
  }, 480_000);
});
