// The sampler on its own: which model answers a server's sampling request, what it is sent, and
// how the answer is stored (a priced turn of the session mcp.<server>.sampling).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHcl } from '../../config/support.js';
import { EventBus, type RunEvent } from '../../../runtime/kernel/events.js';
import { createSampler } from '../../../runtime/model/mcpSampling.js';
import { ModelResolver } from '../../../runtime/model/models.js';
import type { ModelRequest } from '../../../runtime/providers/types.js';
import { openStore, type Store } from '../../../store/index.js';

let store: Store | undefined;
afterEach(() => store?.close());

const HCL = `model "m" {
  provider = "anthropic"
  api_key  = "k"
}
mcp "s" {
  command  = "x"
  sampling = true
}
mcp "h" {
  command        = "x"
  sampling       = true
  sampling_model = models.m.claude_haiku_4_5
}
mission "x" {
  commander { model = models.m.claude_opus_4_8 }
  task "t" {
    objective = "o"
    tools     = [mcp.s.all]
    model     = models.m.claude_sonnet_4_6
  }
}
`;

async function setup() {
  const loaded = loadHcl(HCL);
  if (!loaded.graph) throw new Error(JSON.stringify(loaded.diagnostics));
  const graph = loaded.graph;
  store = openStore(join(mkdtempSync(join(tmpdir(), 'sq-sampling-')), 'db.sqlite'));
  const run = await store.runs.create({ mission: 'x', configPath: '/p', inputs: {} });
  const requests: ModelRequest[] = [];
  const models = new ModelResolver(graph, () => ({
    provider: 'anthropic',
    complete: async (request) => {
      requests.push(request);
      return { message: { role: 'assistant', parts: [{ type: 'text', text: 'a summary' }] }, stopReason: 'end_turn', usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, model: request.model };
    },
  }));
  const events: RunEvent[] = [];
  const bus = new EventBus();
  bus.subscribe('test', (e) => events.push(e));
  const sample = createSampler({ graph, mission: graph.missions[0]!, runId: run.id, store, bus, models });
  return { sample, requests, events, runId: run.id };
}

const params = (maxTokens: number) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarize this' } }], systemPrompt: 'You help the server.', maxTokens });

describe('createSampler', () => {
  it("answers with the calling worker's model, within maxTokens, and records a priced turn", async () => {
    const { sample, requests, events, runId } = await setup();
    const caller = { task: 't', agent: 'worker', callId: 'c1' };
    const answer = await sample({ server: 's', caller, params: params(64), signal: new AbortController().signal });
    expect(answer).toEqual({ role: 'assistant', content: { type: 'text', text: 'a summary' }, model: 'claude-sonnet-4-6', stopReason: 'endTurn' });
    expect(requests[0]).toMatchObject({ model: 'claude-sonnet-4-6', system: 'You help the server.', maxOutputTokens: 64, tools: [] });
    await sample({ server: 's', caller, params: params(1_000_000), signal: new AbortController().signal });
    expect(requests[1]!.maxOutputTokens).toBe(8192);
    const session = (await store!.sessions.get(runId, 't', 'mcp.s.sampling'))!;
    expect((await store!.messages.list(session.id)).map((m) => [m.role, m.kind ?? null, m.turn])).toEqual([
      ['user', 'sampling', 1],
      ['assistant', null, 1],
      ['user', 'sampling', 2],
      ['assistant', null, 2],
    ]);
    const totals = (await store!.turns.totalsBySession(runId)).get(session.id)!;
    expect(totals.turns).toBe(2);
    expect(totals.costUsd).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'model.turn').map((e) => (e as { agent: string }).agent)).toEqual(['mcp.s.sampling', 'mcp.s.sampling']);
  });

  it("uses the block's sampling_model when it names one", async () => {
    const { sample, requests } = await setup();
    await sample({ server: 'h', caller: { task: 't', agent: 'worker', callId: 'c1' }, params: params(10), signal: new AbortController().signal });
    expect(requests[0]!.model).toBe('claude-haiku-4-5-20251001');
  });

  it('refuses a caller whose model it cannot tell', async () => {
    const { sample, requests } = await setup();
    await expect(sample({ server: 's', caller: { task: 'nope', agent: 'worker', callId: 'c1' }, params: params(10), signal: new AbortController().signal })).rejects.toThrow(/no model answers sampling for MCP server "s" in task "nope"/);
    expect(requests).toEqual([]);
  });
});
