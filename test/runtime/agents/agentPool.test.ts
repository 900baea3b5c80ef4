// The agent pool (runtime/agents/agentPool.ts) on its own: a real store, the run's services as
// openRunServices builds them and a scripted model. An agent keeps one session across calls (its
// conversation continues); an unknown agent is refused; a call already answered is delivered from the
// store after a restart without asking the model again; calls to one agent wait for each other while
// calls to different agents run at once.

import { describe, expect, it } from 'vitest';
import { AgentPool } from '../../../runtime/agents/agentPool.js';
import { commanderAgents } from '../../../runtime/agents/definitions.js';
import type { ModelRequest, ModelResponse } from '../../../runtime/providers/types.js';
import { conversationText, harness, lastText, MODEL_BLOCK, say, type Harness, type Script } from '../orchestration.js';

const HCL = `${MODEL_BLOCK}
agent "helper" {
  model       = models.m.claude_sonnet_4_6
  personality = "Helps."
  tools       = [builtins.utils.current_time]
}
agent "other" {
  model       = models.m.claude_sonnet_4_6
  personality = "Also helps."
  tools       = [builtins.utils.current_time]
}
mission "m" {
  agents = [agents.helper, agents.other]
  commander { model = models.m.claude_sonnet_4_6 }
  task "t" { objective = "Do the thing." }
}
`;

async function pool(script: Script): Promise<{ h: Harness; make: () => Promise<AgentPool> }> {
  const h = await harness(HCL, script);
  const task = h.ctx.mission.tasks[0]!;
  const commander = await h.store.sessions.open({ runId: h.ctx.runId, task: 't', agent: 'commander', role: 'commander', model: 'claude-sonnet-4-6', systemPrompt: 'c', tools: [], skills: [] });
  const defs = await commanderAgents(h.ctx, task, 'Do the thing.');
  return { h, make: async () => new AgentPool(h.ctx, task, defs, commander.id) };
}

const echo: Script = (request) => say(`${request.trace.agent} answers: ${lastText(request).split('\n').at(-1)}`);

describe('AgentPool', () => {
  it("keeps one session per agent across calls, continuing the agent's conversation", async () => {
    const { h, make } = await pool(echo);
    const agents = await make();
    expect(agents.names()).toEqual(expect.arrayContaining(['helper', 'other']));
    const first = await agents.call('helper', 'Count the files.', 'task', 'call_1');
    const second = await agents.call('helper', 'Now the folders.', 'task', 'call_2');
    expect(first).toMatchObject({ ok: true, agentId: 'helper' });
    expect(second).toMatchObject({ ok: true, agentId: 'helper' });
    if (!first.ok || !second.ok) throw new Error('unreachable');
    expect(first.answer).toContain('Count the files.');
    expect(second.answer).toContain('Now the folders.');
    expect(second.sessionId).toBe(first.sessionId);
    // The second request carries the first instruction and its answer: the same conversation.
    const helperRequests = h.requests.filter((r) => r.trace.agent === 'helper');
    expect(helperRequests).toHaveLength(2);
    expect(conversationText(helperRequests[1]!)).toContain('Count the files.');
    expect(conversationText(helperRequests[1]!)).toContain(first.answer);
    expect(h.events.filter((e) => e.type === 'session.started' && e.agent === 'helper')).toHaveLength(1);
    const row = (await h.store.sessions.get(h.ctx.runId, 't', 'helper'))!;
    expect([row.id, row.status]).toEqual([first.sessionId, 'completed']);
    agents.close();
    await h.close();
  });

  it('refuses an unknown agent, and a follow-up question to an agent that has not worked yet', async () => {
    const { h, make } = await pool(echo);
    const agents = await make();
    await expect(agents.call('nobody', 'Hi.', 'task', 'call_1')).rejects.toThrow('agent "nobody" is not defined for task "t"');
    const unknown = await agents.ask('nobody', 'Why?', 'call_2');
    expect(unknown).toEqual({ ok: false, error: expect.stringMatching(/^No agent "nobody" in this task\. Agent ids: .*helper.*other.*\.$/) });
    expect(await agents.ask('helper', 'Why?', 'call_3')).toEqual({ ok: false, agentId: 'helper', error: '"helper" has not worked on this task yet: use call_agent first.' });
    // Nothing reached the model.
    expect(h.requests).toEqual([]);
    await agents.call('helper', 'Count the files.', 'task', 'call_4');
    expect(await agents.ask('helper', 'How many?', 'call_5')).toMatchObject({ ok: true, agentId: 'helper' });
    agents.close();
    await h.close();
  });

  it('after a restart delivers an answered call from the store without asking the model again', async () => {
    const { h, make } = await pool(echo);
    const before = await make();
    const answered = await before.call('helper', 'Count the files.', 'task', 'call_1');
    before.close();
    expect(h.requests).toHaveLength(1);
    // A new pool over the same store: the commander's call_1 is delivered again (a resumed commander).
    const after = await make();
    const again = await after.call('helper', 'Count the files.', 'task', 'call_1');
    expect(again).toEqual(answered);
    expect(h.requests).toHaveLength(1);
    expect(h.events.filter((e) => e.type === 'session.started' && e.agent === 'helper').map((e) => (e as { resumed: boolean }).resumed)).toEqual([false, true]);
    after.close();
    await h.close();
  });

  it("serializes calls to one agent and runs calls to different agents at once", async () => {
    const held: { request: ModelRequest; answer: (r: ModelResponse) => void }[] = [];
    const waiters: (() => void)[] = [];
    const script: Script = (request) =>
      new Promise<ModelResponse>((resolve) => {
        held.push({ request, answer: resolve });
        for (const wake of waiters.splice(0)) wake();
      });
    const whenHeld = async (n: number): Promise<void> => {
      while (held.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    const { h, make } = await pool(script);
    const agents = await make();
    const a1 = agents.call('helper', 'First for helper.', 'task', 'call_1');
    const a2 = agents.call('helper', 'Second for helper.', 'task', 'call_2');
    const b1 = agents.call('other', 'First for other.', 'task', 'call_3');
    await whenHeld(2);
    // helper's first call and other's call are in flight; helper's second waits for its first.
    expect(held.map((x) => x.request.trace.agent).sort()).toEqual(['helper', 'other']);
    expect(held.some((x) => lastText(x.request).includes('Second for helper.'))).toBe(false);
    held.find((x) => x.request.trace.agent === 'other')!.answer(say('other done'));
    expect(await b1).toMatchObject({ ok: true, answer: 'other done' });
    expect(held).toHaveLength(2);
    held.find((x) => x.request.trace.agent === 'helper')!.answer(say('helper first done'));
    expect(await a1).toMatchObject({ ok: true, answer: 'helper first done' });
    await whenHeld(3);
    expect(lastText(held[2]!.request)).toContain('Second for helper.');
    held[2]!.answer(say('helper second done'));
    expect(await a2).toMatchObject({ ok: true, answer: 'helper second done' });
    agents.close();
    await h.close();
  });
});
