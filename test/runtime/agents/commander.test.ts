// The commander (runtime/agents/commander.ts) on its own: a real store, the run's services as
// openRunServices builds them and a scripted model playing the commander and its agent. The commander
// delegates with call_agent and finishes with task_complete (its summary and submitted output are the
// task's outcome); a task it reports failed fails with its reason; it stops at its turn limit with a
// clear failure; a commander found in the store continues its conversation instead of starting again.

import { describe, expect, it } from 'vitest';
import { commanderAgents } from '../../../runtime/agents/definitions.js';
import { runCommander } from '../../../runtime/agents/commander.js';
import type { ModelRequest, ModelResponse } from '../../../runtime/providers/types.js';
import { conversationText, harness, reopen, MODEL_BLOCK, resultsOf, say, use, type Harness, type Script } from '../orchestration.js';

const HCL = `${MODEL_BLOCK}
agent "helper" {
  model       = models.m.claude_sonnet_4_6
  personality = "Helps."
  tools       = [builtins.utils.current_time]
}
mission "m" {
  agents = [agents.helper]
  commander { model = models.m.claude_sonnet_4_6 }
  task "t" {
    objective = "Count the files."
    output {
      field "count" {
        type     = "integer"
        required = true
      }
    }
  }
}
`;

async function commander(h: Harness) {
  const task = h.ctx.mission.tasks[0]!;
  return runCommander(h.ctx, task, await commanderAgents(h.ctx, task, 'Count the files.'), [], 'Count the files.');
}

/** The helper answers every instruction; the commander follows `steps`, one per turn (by how many turns it took). */
function script(steps: ((request: ModelRequest) => ModelResponse)[]): Script {
  return (request) => {
    if (request.trace.agent !== 'commander') return say('There are 7 files.');
    const step = steps[Math.min(request.trace.turn, steps.length) - 1]!;
    return step(request);
  };
}

describe('runCommander', () => {
  it("delegates with call_agent and completes with the agent's findings as summary and output", async () => {
    const h = await harness(
      HCL,
      script([
        () => use('call_agent', { name: 'helper', task: 'Count the files in the workspace.' }),
        () => use('submit_output', { output: { count: 7 } }),
        () => use('task_complete', { summary: 'The workspace holds 7 files.' }),
      ]),
    );
    const outcome = await commander(h);
    expect(outcome).toEqual({ status: 'completed', summary: 'The workspace holds 7 files.', output: { count: 7 } });
    // The commander read the helper's answer before it submitted.
    const commanderRequests = h.requests.filter((r) => r.trace.agent === 'commander');
    expect(commanderRequests).toHaveLength(3);
    expect(resultsOf(commanderRequests[1]!, 'call_agent')).toBe(1);
    expect(conversationText(commanderRequests[1]!)).toContain('There are 7 files.');
    expect(h.requests.filter((r) => r.trace.agent === 'helper')).toHaveLength(1);
    expect((await h.store.sessions.get(h.ctx.runId, 't', 'commander'))!.status).toBe('completed');
    expect(h.events.filter((e) => e.type === 'session.finished').map((e) => [(e as { agent: string }).agent, (e as { status: string }).status])).toEqual([
      ['helper', 'completed'],
      ['commander', 'completed'],
    ]);
    await h.close();
  });

  it('fails the task with the reason the commander gives when it reports failure', async () => {
    const h = await harness(HCL, script([() => use('task_complete', { summary: 'Could not count.', succeed: false, reason: 'the workspace is unreadable' })]));
    expect(await commander(h)).toEqual({ status: 'failed', error: 'the workspace is unreadable' });
    expect(h.requests.filter((r) => r.trace.agent === 'helper')).toEqual([]);
    await h.close();
  });

  it('stops at its turn limit with a clear failure, asking the model no further', async () => {
    // Every turn delegates again and never completes.
    const h = await harness(HCL, script([() => use('call_agent', { name: 'helper', task: 'Count again.' })]), { commanderMaxTurns: 3 });
    const outcome = await commander(h);
    expect(outcome).toEqual({ status: 'failed', error: 'turn limit reached (3 model turns on one instruction)' });
    expect(h.requests.filter((r) => r.trace.agent === 'commander').map((r) => r.trace.turn)).toEqual([1, 2, 3]);
    expect((await h.store.sessions.get(h.ctx.runId, 't', 'commander'))!.status).toBe('failed');
    expect(h.events.filter((e) => e.type === 'session.finished' && e.agent === 'commander').map((e) => (e as { status: string }).status)).toEqual(['failed']);
    await h.close();
  });

  it('continues a stored commander from its conversation instead of starting over', async () => {
    // First process: the commander delegates, then the run is interrupted during its next model call.
    let interruptOnTurn2: (() => void) | undefined;
    const first = await harness(
      HCL,
      script([
        () => use('call_agent', { name: 'helper', task: 'Count the files in the workspace.' }),
        () => {
          interruptOnTurn2?.();
          return use('submit_output', { output: { count: 7 } });
        },
      ]),
    );
    interruptOnTurn2 = () => first.interrupt.abort();
    await commander(first).catch((error: unknown) => error);
    const commanderTurns = first.requests.filter((r) => r.trace.agent === 'commander').length;
    expect(commanderTurns).toBe(2);
    await first.close();

    // Second process over the same store: the commander's history is replayed, the helper is not asked again.
    const second = await reopen(first, (request) => {
      if (request.trace.agent !== 'commander') return say('There are 7 files.');
      return resultsOf(request, 'submit_output') > 0 ? use('task_complete', { summary: 'Resumed: 7 files.' }) : use('submit_output', { output: { count: 7 } });
    });
    const outcome = await commander(second);
    const seen = second.requests;
    expect(outcome).toEqual({ status: 'completed', summary: 'Resumed: 7 files.', output: { count: 7 } });
    // The resumed commander's first request already holds the helper's answer from the first process.
    expect(seen[0]!.trace.agent).toBe('commander');
    expect(resultsOf(seen[0]!, 'call_agent')).toBe(1);
    expect(conversationText(seen[0]!)).toContain('There are 7 files.');
    expect(seen.filter((r) => r.trace.agent === 'helper')).toEqual([]);
    await second.close();
  });
});
