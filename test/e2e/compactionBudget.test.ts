// End-to-end: a compaction summary is a model call like any other, reserved against the run's
// budgets before it is sent (runtime/model/modelCall.ts). A worker whose last reply reports a large input
// pushes its session past token_limit and the mission's spend close to its limit; the summary the
// compaction would ask for cannot be afforded, so it is never sent and the run stops naming the budget.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, openRunDb, removeProjects, storedEvents, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const SUMMARY_SYSTEM = "You summarize part of an agent's conversation";

/**
 * Output is what a reservation is made of: $1,000 per million output tokens with max_output_tokens
 * = 1000 makes every call (the summary's too) reserve a little over $1.00. Input costs $6 per million,
 * so a reply reporting 90,000 input tokens settles at $0.54.
 */
function project(server: FakeModelServer): string {
  return writeProject({
    'main.hcl': `model "fake" {
  provider          = "anthropic"
  base_url          = "${server.anthropicBaseURL}"
  api_key           = "test-key-123"
  max_output_tokens = 1000
  pricing "claude_sonnet_4_6" {
    input       = 6
    output      = 1000
    cache_read  = 6
    cache_write = 6
  }
}
mission "m" {
  budget {
    dollars = 1.4
  }
  commander { model = ${ANTHROPIC_MODEL} }
  agent_defaults {
    compaction {
      token_limit    = 20000
      summarize      = true
      turn_retention = 1
    }
  }
  task "clock" {
    objective = "Tell the time."
    tools     = [builtins.utils.current_time]
  }
}
`,
  });
}

const small = (reply: FakeReply): FakeReply => ({ ...reply, usage: { inputTokens: 100, outputTokens: 10 } });

describe('a compaction summary under a budget', () => {
  it('is not sent when the budget cannot afford it: the run stops (exit 3) naming the budget', async () => {
    const turns = turnScript({
      [commanderOf('clock')]: [small(callAgent('worker', 'Tell the time twice'))],
      [workerOf('clock')]: [
        small(toolCall('builtins_utils_current_time', { timezone: 'UTC' })),
        // Reported as 90,000 input tokens: the next request passes token_limit, and $0.54 is spent.
        { ...toolCall('builtins_utils_current_time', { timezone: 'Asia/Tokyo' }), usage: { inputTokens: 90_000, outputTokens: 10 } },
        small({ text: 'done' }),
      ],
    });
    const summaries: string[] = [];
    await withFakeModelServer(
      (req) => {
        if (req.canonical.system.startsWith(SUMMARY_SYSTEM)) {
          summaries.push(req.canonical.system);
          return { text: 'Summary: the time was read twice.', usage: { inputTokens: 100, outputTokens: 10 } };
        }
        return turns.respond(req);
      },
      async (server) => {
        const dir = project(server);
        const run = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
        expect(run.code, run.stdout + run.stderr).toBe(3);
        expect(turns.problems).toEqual([]);
        // The commander's call and the worker's two: the summary (and the turn after it) never left.
        expect(summaries).toEqual([]);
        expect(server.requests.map((r) => r.canonical.system.startsWith(SUMMARY_SYSTEM))).toEqual([false, false, false]);
        expect(run.stdout).toContain('mission m stopped');
        expect(run.stdout).toMatch(/stopped: the mission budget cannot afford the next model call: \$0\.\d{4} spent of \$1\.4000, and the call may cost up to \$1\.\d{4}/);
        const exceeded = storedEvents<{ scope: string; kind: string; limit: number }>(dir, 'budget.exceeded');
        expect(exceeded.map((e) => [e.scope, e.kind, e.limit])).toEqual([['mission', 'dollars', 1.4]]);
        const db = openRunDb(dir);
        try {
          expect(db.prepare('SELECT status FROM runs').pluck().get()).toBe('stopped');
          // No turn and no cut was stored for the refused summary; nothing stays reserved.
          expect(db.prepare('SELECT COUNT(*) FROM model_turns').pluck().get()).toBe(3);
          expect(db.prepare('SELECT COUNT(*) FROM context_views').pluck().get()).toBe(0);
          expect(db.prepare('SELECT COUNT(*) FROM budget_reservations').pluck().get()).toBe(0);
        } finally {
          db.close();
        }
      },
    );
  }, 180_000);
});
