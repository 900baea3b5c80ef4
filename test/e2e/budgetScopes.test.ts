// End-to-end: the budgets budget.test.ts leaves out. A task's own dollar budget stops the run naming
// that task's budget while a task without one completes; a duration budget stops a task whose model
// is slow once its time is up (never a tight timing: 2 s of budget against 6 s replies); and an MCP
// sampling request is reserved like any model call, so one that cannot fit is refused before it
// reaches the model.

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, openRunDb, removeProjects, requestsOf, storedEvents, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

/** $0.001 per output token, input almost free: a call reserves about max_output_tokens × $0.001. */
function pricedModel(server: FakeModelServer, name = 'fake', maxOutput = 1000): string {
  return `model "${name}" {
  provider          = "anthropic"
  base_url          = "${server.anthropicBaseURL}"
  api_key           = "test-key-123"
  max_output_tokens = ${maxOutput}
  pricing "claude_sonnet_4_6" {
    input       = 0.001
    output      = 1000
    cache_read  = 0.001
    cache_write = 0.001
  }
}
`;
}

const withUsage = (reply: FakeReply, outputTokens = 500): FakeReply => ({ ...reply, usage: { inputTokens: 100, outputTokens } });

interface Exceeded {
  task: string;
  agent: string;
  scope: string;
  kind: string;
  limit: number;
}

function runRow(dir: string): { status: string; error: string | null } {
  const db = openRunDb(dir);
  try {
    return db.prepare('SELECT status, error FROM runs').get() as { status: string; error: string | null };
  } finally {
    db.close();
  }
}

function taskStatuses(dir: string): Record<string, string> {
  const db = openRunDb(dir);
  try {
    return Object.fromEntries((db.prepare('SELECT name, status FROM tasks').all() as { name: string; status: string }[]).map((r) => [r.name, r.status]));
  } finally {
    db.close();
  }
}

describe('budgets of a task, of time, and of MCP sampling', () => {
  it("a task's dollar budget stops that task's calls and the run (exit 3), naming the task's budget; a task without one completes", async () => {
    const zones = ['UTC', 'Europe/Paris', 'Asia/Tokyo', 'America/New_York'];
    const turns = turnScript({
      [commanderOf('clock')]: [withUsage(callAgent('worker', 'Tell the time in four zones')), (req: FakeRequest) => withUsage(taskComplete(`times: ${lastToolResult(req)}`))],
      [workerOf('clock')]: [...zones.map((timezone) => withUsage(toolCall('builtins_utils_current_time', { timezone }))), withUsage({ text: 'done' })],
      [commanderOf('free')]: [withUsage(taskComplete('free is done'), 10)],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${pricedModel(server)}
mission "m" {
  max_parallel = 1
  commander { model = ${ANTHROPIC_MODEL} }
  task "free" {
    objective = "Nothing to pay for."
    tools     = [builtins.utils.current_time]
  }
  task "clock" {
    depends_on = [tasks.free]
    objective  = "Tell the time."
    tools      = [builtins.utils.current_time]
    budget {
      dollars = 3
    }
  }
}
`,
      });
      const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(turns.problems).toEqual([]);
      // free: one call. clock: four calls fit ($0.50 settled each, about $1.00 reserved); the fifth could pass $3.
      expect(server.requests.filter((r) => r.canonical.system.includes('task "clock"'))).toHaveLength(4);
      expect(run.stdout).toContain('stopped: the budget of task "clock" cannot afford the next model call: $2.0000 spent of $3.0000');
      expect(runRow(dir).status).toBe('stopped');
      expect(taskStatuses(dir).free).toBe('completed');
      expect(taskStatuses(dir).clock).not.toBe('completed');
      const exceeded = storedEvents<Exceeded>(dir, 'budget.exceeded');
      expect(exceeded.map((e) => [e.task, e.scope, e.kind, e.limit])).toEqual([['clock', 'clock', 'dollars', 3]]);
      const shown = await runCli(['inspect', /run (run_\w+)/.exec(run.stdout)![1]!], { cwd: dir });
      expect(shown.stdout).toContain('budget of task clock: $2.0000 of $3');
    });
  }, 180_000);

  it("a duration budget stops a task once its time is up: the call after a slow reply is not sent (exit 3)", async () => {
    const turns = turnScript({
      // Held just past the 2 s budget: the task's clock started before this request was sent, so once
      // 2 s have passed since it arrived, the budget has surely run out (no need for a longer wait).
      [commanderOf('slow')]: [() => ({ ...callAgent('worker', 'Take your time'), delayMs: 2_250 }), (req: FakeRequest) => taskComplete(lastToolResult(req))],
      [workerOf('slow')]: [{ text: 'done' }],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${pricedModel(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "slow" {
    objective = "Be slow."
    tools     = [builtins.utils.current_time]
    budget {
      duration = "2s"
    }
  }
}
`,
      });
      const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(run.code, run.stdout + run.stderr).toBe(3);
      // The first call went out inside the 2 s and returned after them, so the worker's call was never sent.
      expect(server.requests).toHaveLength(1);
      expect(run.stdout).toMatch(/stopped: the budget of task "slow" ran out of time: \d+(\.\d+)?s of 2s/);
      expect(runRow(dir).status).toBe('stopped');
      const exceeded = storedEvents<Exceeded>(dir, 'budget.exceeded');
      expect(exceeded.map((e) => [e.task, e.agent, e.scope, e.kind])).toEqual([['slow', 'worker', 'slow', 'duration']]);
    });
  }, 180_000);

  it('reserves an MCP sampling request like a model call: one that cannot fit is refused before it reaches the model', async () => {
    const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const turns = turnScript({
      [commanderOf('sampled')]: [withUsage(callAgent('worker', 'Do the sampled part.'), 10), (req: FakeRequest) => withUsage(taskComplete(lastToolResult(req)), 10)],
      [workerOf('sampled')]: [withUsage(toolCall('mcp_every_trigger-sampling-request', { prompt: 'Say hello', maxTokens: 3000 }), 10), withUsage({ text: 'Tried.' }, 10)],
      'helpful test server': [{ text: 'sampled' }],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      // Agents' calls reserve about $1 (max_output_tokens 1000) and settle at about $0.01; the
      // sampling model allows 4000 output tokens, so the server's 3000 reserve $3: more than the $2 cap.
      const dir = writeProject({
        'main.hcl': `${pricedModel(server)}
${pricedModel(server, 'big', 4000)}
mcp "every" {
  command        = "${process.execPath}"
  args           = ["${EVERYTHING}"]
  sampling       = true
  sampling_model = models.big.claude_sonnet_4_6
}
mission "m" {
  budget {
    dollars = 2
  }
  commander { model = ${ANTHROPIC_MODEL} }
  task "sampled" {
    objective = "Use the sampled tools."
    tools     = [mcp.every["trigger-sampling-request"]]
    discovery = false
  }
}
`,
      });
      const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000 });
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(requestsOf(server, 'helpful test server')).toHaveLength(0);
      const exceeded = storedEvents<Exceeded>(dir, 'budget.exceeded');
      expect(exceeded.map((e) => [e.task, e.agent, e.scope, e.kind, e.limit])).toEqual([['sampled', 'mcp.every.sampling', 'mission', 'dollars', 2]]);
      expect(exceeded[0]).toMatchObject({ needed: expect.any(Number) });
      expect((exceeded[0] as unknown as { needed: number }).needed).toBeGreaterThan(2);
      expect(run.stdout).toContain('stopped: the mission budget cannot afford the next model call');
      expect(runRow(dir).status).toBe('stopped');
    });
  }, 240_000);
});
