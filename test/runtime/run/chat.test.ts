// The chat (runtime/run/chat.ts, chatAgent.ts) on its own: a real store and a scripted model through
// the environment's client hook. Which agents one can chat with and how the chat's mission is made;
// a chat stores each message and carries it to the model; a stored chat continues; a second process
// cannot hold the same chat; a run of a mission is not a chat.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Chat, ChatNotFound, chatAgents, UnknownChatAgent } from '../../../runtime/run/chat.js';
import { chatMission, findChatAgent } from '../../../runtime/run/chatAgent.js';
import type { RunEnvironment } from '../../../runtime/run/environment.js';
import { RunBusy, RunRefused } from '../../../runtime/run/runRefused.js';
import type { ModelClient, ModelRequest } from '../../../runtime/providers/types.js';
import { openDatabase } from '../../../store/index.js';
import { lastText, loadMission, MODEL_BLOCK, say } from '../orchestration.js';

const HCL = `${MODEL_BLOCK}
agent "helper" {
  model       = models.m.claude_sonnet_4_6
  personality = "Helps."
  tools       = [builtins.utils.current_time]
}
mission "m" {
  commander { model = models.m.claude_sonnet_4_6 }
  agent_defaults {
    max_repeated_calls = 2
  }
  agent "local" {
    model       = models.m.claude_sonnet_4_6
    personality = "Lives in m."
  }
  task "t" {
    objective = "Do the thing."
    agents    = [agents.local]
  }
}
`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function environment(requests: ModelRequest[]): RunEnvironment {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-chat-'));
  dirs.push(dir);
  const { graph } = loadMission(HCL);
  const client: ModelClient = {
    provider: 'anthropic',
    complete: async (request) => {
      requests.push(request);
      return say(`heard: ${lastText(request)}`);
    },
  };
  return { graph, configPath: dir, dbPath: join(dir, 'squadron.db'), interrupt: new AbortController().signal, modelClient: () => client };
}

const open = (env: RunEnvironment, req: { agent?: string; chatId?: string }): Promise<Chat> => Chat.open(env, { ...req, workspaceFor: (id) => join(env.configPath, 'ws', id) });

describe('the agents of a chat', () => {
  const { graph } = loadMission(HCL);

  it('lists top-level agents first, then those declared in a mission', () => {
    expect(chatAgents(graph).map((a) => [a.spec.name, a.mission?.name])).toEqual([
      ['helper', undefined],
      ['local', 'm'],
    ]);
  });

  it('refuses an unknown agent with the nearest name and the list', () => {
    expect(() => findChatAgent(graph, 'helpr')).toThrow(UnknownChatAgent);
    expect(() => findChatAgent(graph, 'helpr')).toThrow('no agent "helpr" in the config. Did you mean "helper"? (agents: helper, local)');
  });

  it("makes the chat's mission: one task holding the agent, with its own mission's defaults when it has one", () => {
    const top = chatMission(findChatAgent(graph, 'helper'));
    expect(top.name).toBe('chat:helper');
    expect(top.tasks.map((t) => [t.name, t.agents])).toEqual([['chat', ['helper']]]);
    expect(top.agentDefaults).toBeUndefined();
    const local = chatMission(findChatAgent(graph, 'local'));
    expect(local.localAgents.map((a) => a.name)).toEqual(['local']);
    expect(local.agentDefaults?.loopGuard).toEqual({ maxRepeatedCalls: 2 });
  });
});

describe('a chat', () => {
  it('stores each message, sends every earlier turn with the next, and continues when reopened', async () => {
    const requests: ModelRequest[] = [];
    const env = environment(requests);
    const chat = await open(env, { agent: 'helper' });
    expect(chat.resumed).toBe(false);
    expect(await chat.send('one')).toEqual({ kind: 'answer', text: 'heard: one' });
    expect(await chat.send('two')).toEqual({ kind: 'answer', text: 'heard: two' });
    expect(requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(requests[0]!.system).toContain('chatting interactively with a person');
    expect(requests[0]!.tools.map((t) => t.name)).toContain('builtins_utils_current_time');
    await chat.close();

    const again = await open(env, { chatId: chat.id });
    expect([again.resumed, again.agent]).toEqual([true, 'helper']);
    expect(await again.unfinished()).toBe(false);
    expect(await again.history()).toEqual([
      { role: 'user', text: 'one' },
      { role: 'assistant', text: 'heard: one' },
      { role: 'user', text: 'two' },
      { role: 'assistant', text: 'heard: two' },
    ]);
    await again.send('three');
    expect(requests[2]!.messages).toHaveLength(5);
    // What the whole chat spent, the earlier process's turns included.
    expect((await again.close()).turns).toBe(3);

    const store = await openDatabase(env.dbPath);
    try {
      expect(await store.runs.get(chat.id)).toMatchObject({ mission: 'chat:helper', status: 'completed' });
    } finally {
      await store.close();
    }
  });

  it('is held by one process at a time, and a stored chat is with its own agent', async () => {
    const env = environment([]);
    const chat = await open(env, { agent: 'helper' });
    try {
      await expect(open(env, { chatId: chat.id })).rejects.toThrow(RunBusy);
      await expect(open(env, { chatId: chat.id, agent: 'local' })).rejects.toThrow('is with agent "helper", not "local"');
      await expect(open(env, { chatId: 'run_nothere' })).rejects.toThrow(ChatNotFound);
    } finally {
      await chat.close();
    }
  });

  it("refuses a mission's run as a chat", async () => {
    const env = environment([]);
    const store = await openDatabase(env.dbPath);
    const run = await store.runs.create({ mission: 'm', configPath: env.configPath, inputs: {} });
    await store.close();
    await expect(open(env, { chatId: run.id })).rejects.toThrow(RunRefused);
    await expect(open(env, { chatId: run.id })).rejects.toThrow(`is a run of mission "m", not a chat`);
  });
});
