// End-to-end: the runaway guards of an agent session. The same tool with identical arguments three
// times in a row is answered with a correction instead of being run; a fourth stops the session with
// a clear reason; `max_repeated_calls` and `max_turns_without_progress` on agent_defaults change the
// limits; every action is a loop.detected event that `inspect` shows.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, latestToolResults, openRunDb, removeProjects, resultText, storedEvents, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

function project(server: FakeModelServer, defaults = ''): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  ${defaults}
  task "clock" {
    objective = "Tell the time."
    tools     = [builtins.utils.current_time]
  }
}
`,
  });
}

function executedCalls(dir: string): number {
  const db = openRunDb(dir);
  try {
    return db.prepare("SELECT COUNT(*) FROM tool_calls WHERE tool_ref = 'builtins.utils.current_time'").pluck().get() as number;
  } finally {
    db.close();
  }
}

const sameCall = toolCall('builtins_utils_current_time', { timezone: 'UTC' });

describe('loop guards', () => {
  it('corrects the third identical call instead of running it, and stops the session at the fourth', async () => {
    const turns = turnScript({
      [commanderOf('clock')]: [callAgent('worker', 'Tell the time'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
      [workerOf('clock')]: [sameCall, sameCall, sameCall, sameCall],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const result = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(result.code, result.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const worker = server.requests.filter((r) => r.canonical.system.includes(workerOf('clock')));
      expect(worker).toHaveLength(4);
      // The third call's result, as the model read it in its fourth request: the correction.
      const corrected = latestToolResults(worker[3]!)[0];
      expect(corrected?.isError).toBe(true);
      expect(resultText(corrected)).toContain('You have called builtins_utils_current_time with exactly these arguments 3 times in a row, so this call was not executed');
      // Two calls ran; the corrected one and the fourth did not.
      expect(executedCalls(dir)).toBe(2);
      expect(result.stdout).toContain('stopped by the loop guard: the agent called builtins_utils_current_time with the same arguments 4 times in a row');
      const events = storedEvents<{ guard: string; action: string; count: number; agent: string }>(dir, 'loop.detected');
      expect(events.map((e) => [e.agent, e.guard, e.action, e.count])).toEqual([
        ['worker', 'repeated_call', 'corrected', 3],
        ['worker', 'repeated_call', 'stopped', 4],
      ]);
      const runId = (openRunDb(dir).prepare('SELECT id FROM runs').pluck().get() as string);
      const shown = await runCli(['inspect', runId], { cwd: dir });
      expect(shown.stdout).toMatch(/loop\.detected \(clock\) at .*: builtins_utils_current_time was called with the same arguments 3 times in a row/);
      expect(shown.stdout).toMatch(/loop\.detected \(clock\) at .*: session stopped: the agent called/);
    });
  });

  it('takes its limits from agent_defaults: max_repeated_calls and max_turns_without_progress', async () => {
    // Different arguments whose results repeat (an unknown zone fails the same way each time): no progress.
    const bad = (n: number) => toolCall('builtins_utils_current_time', { timezone: `Nowhere/${n % 2}` });
    const turns = turnScript({
      [commanderOf('clock')]: [callAgent('worker', 'Tell the time'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
      [workerOf('clock')]: [bad(0), bad(1), bad(2), bad(3), bad(4), { text: 'never reached' }],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server, 'agent_defaults {\n    max_repeated_calls         = 2\n    max_turns_without_progress = 3\n  }');
      const result = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(result.code, result.stderr).toBe(0);
      // Results 1 and 2 are new; 3, 4 and 5 repeat them: stopped after the fifth turn's results.
      expect(server.requests.filter((r) => r.canonical.system.includes(workerOf('clock')))).toHaveLength(5);
      expect(result.stdout).toContain('stopped by the loop guard: its tool results brought nothing new for 3 turns in a row');
      expect(storedEvents<{ guard: string; action: string }>(dir, 'loop.detected').map((e) => [e.guard, e.action])).toEqual([['no_progress', 'stopped']]);
    });
  });
});
