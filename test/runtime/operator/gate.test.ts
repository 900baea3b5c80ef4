// The operator's step in a turn's tool calls: a call needing approval is stored pending_approval and
// never run while nobody decided (the turn's other calls run and are recorded, then the session
// parks); approved, it runs once; denied, the model gets the reason. decideRequests checks a decision
// against the request before recording it.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { executeToolCalls } from '../../../runtime/session/toolExecution.js';
import { RunParked, type SessionDeps } from '../../../runtime/session/sessionTypes.js';
import { Toolbox, type SessionTool } from '../../../runtime/tools/toolbox.js';
import { EventBus } from '../../../runtime/kernel/events.js';
import { OperatorDesk } from '../../../runtime/operator/desk.js';
import { decideRequests } from '../../../runtime/operator/decide.js';
import type { OperatorPrompt } from '../../../runtime/operator/types.js';
import { openStore, type Store } from '../../../store/index.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function countingTool(name: string, approval?: 'task'): { tool: SessionTool; runs: () => number } {
  let runs = 0;
  const tool: SessionTool = {
    ref: `builtins.test.${name}`,
    definition: { name, description: name, inputSchema: { type: 'object' } },
    onInterrupted: 'report',
    ...(approval ? { approval } : {}),
    execute: async () => {
      runs += 1;
      return { content: [{ type: 'text', text: `${name} ran` }], isError: false };
    },
  };
  return { tool, runs: () => runs };
}

async function setup(tools: SessionTool[], prompt?: OperatorPrompt): Promise<{ deps: SessionDeps; runId: string; sessionId: string; desk: OperatorDesk }> {
  store = openStore(join(mkdtempSync(join(tmpdir(), 'sq-operator-')), 'db.sqlite'));
  const run = await store.runs.create({ mission: 'm', configPath: '/p', inputs: {} });
  const session = await store.sessions.open({ runId: run.id, task: 't', agent: 'worker', role: 'agent', model: 'x', systemPrompt: 's', tools: [], skills: [] });
  const bus = new EventBus();
  const desk = new OperatorDesk(store, bus, prompt, 'tester');
  const deps = { store, bus, runId: run.id, task: 't', agent: 'worker', sessionId: session.id, toolbox: new Toolbox(tools), resultMaxTokens: 16_000, signal: new AbortController().signal, operator: desk } as unknown as SessionDeps;
  return { deps, runId: run.id, sessionId: session.id, desk };
}

const pay = { type: 'tool_use' as const, id: 'c_pay', name: 'pay', input: { amount: 5 } };
const look = { type: 'tool_use' as const, id: 'c_look', name: 'look', input: {} };

describe('the operator gate', () => {
  it('parks a call needing approval without running it, after running and recording the turn\'s other calls', async () => {
    const paying = countingTool('pay', 'task');
    const looking = countingTool('look');
    const { deps, sessionId, desk } = await setup([paying.tool, looking.tool]);
    await expect(executeToolCalls(deps, [pay, look])).rejects.toBeInstanceOf(RunParked);
    expect(paying.runs()).toBe(0);
    expect(looking.runs()).toBe(1);
    expect((await store!.ledger.get(sessionId, 'c_pay'))?.status).toBe('pending_approval');
    expect((await store!.ledger.get(sessionId, 'c_look'))?.status).toBe('completed');
    expect(desk.hasParked('t')).toBe(true);
    // Asked again (a resume without a decision): still parked, still not run, one request.
    await expect(executeToolCalls(deps, [pay, look])).rejects.toBeInstanceOf(RunParked);
    expect([paying.runs(), looking.runs()]).toEqual([0, 1]);
    expect(await store!.operatorRequests.list(deps.runId)).toHaveLength(1);
  });

  it('runs an approved call once, and answers a denied one with the reason', async () => {
    const paying = countingTool('pay', 'task');
    const { deps, runId } = await setup([paying.tool]);
    await expect(executeToolCalls(deps, [pay])).rejects.toBeInstanceOf(RunParked);
    const [request] = await store!.operatorRequests.list(runId);
    expect(await decideRequests(store!, runId, { kind: 'approve', ids: [], all: false }, 'alice')).toMatchObject({ ok: true });
    const [result] = await executeToolCalls(deps, [pay]);
    expect(result).toMatchObject({ isError: false, content: [{ text: 'pay ran' }] });
    await executeToolCalls(deps, [pay]);
    expect(paying.runs()).toBe(1);
    expect(await store!.operatorRequests.get(runId, request!.id)).toMatchObject({ status: 'approved', decidedBy: 'alice' });

    const denied = { ...pay, id: 'c_pay2' };
    await expect(executeToolCalls(deps, [denied])).rejects.toBeInstanceOf(RunParked);
    expect(await decideRequests(store!, runId, { kind: 'deny', reason: 'too much' }, 'bob')).toMatchObject({ ok: true });
    const [refused] = await executeToolCalls(deps, [denied]);
    expect(refused).toMatchObject({ isError: true, content: [{ text: 'The operator (bob) denied this call, so it was not executed. Reason: too much' }] });
    expect(paying.runs()).toBe(1);
  });

  it("commits the turn's opening (the reply) before the operator is asked, and does not wait with it", async () => {
    const paying = countingTool('pay', 'task');
    const seenWhenAsked: number[] = [];
    let sessionId = '';
    const { deps } = await setup([paying.tool], {
      ask: async () => {
        // What another connection sees while the operator decides: only committed rows.
        const observer = new Database(store!.path, { readonly: true });
        seenWhenAsked.push((observer.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?').get(sessionId) as { n: number }).n);
        observer.close();
        return { status: 'approved' };
      },
    });
    sessionId = deps.sessionId;
    let committed = false;
    const [result] = await executeToolCalls(deps, [pay], {
      opening: {
        write: async (tx) => {
          await tx.store.messages.append(deps.sessionId, { role: 'assistant', parts: [pay], turn: 1 });
        },
        committed: () => (committed = true),
      },
    });
    expect(result?.isError).toBe(false);
    expect(seenWhenAsked).toEqual([1]);
    expect(committed).toBe(true);
  });

  it('asks a prompt when there is one, and records its reply as the decision', async () => {
    const paying = countingTool('pay', 'task');
    const asked: string[] = [];
    const { deps, runId } = await setup([paying.tool], { ask: async (r) => (asked.push(`${r.kind} ${r.tool} ${JSON.stringify(r.input)}`), { status: 'approved' }) });
    const [result] = await executeToolCalls(deps, [pay]);
    expect(result?.isError).toBe(false);
    expect(asked).toEqual(['approval builtins.test.pay {"amount":5}']);
    expect((await store!.operatorRequests.list(runId))[0]).toMatchObject({ status: 'approved', decidedBy: 'tester' });
  });
});

describe('decideRequests', () => {
  it('says which requests wait when several do, and refuses a request of the other kind', async () => {
    const paying = countingTool('pay', 'task');
    const { deps, runId } = await setup([paying.tool]);
    await expect(executeToolCalls(deps, [pay, { ...pay, id: 'c_other' }])).rejects.toBeInstanceOf(RunParked);
    const outcome = await decideRequests(store!, runId, { kind: 'approve', ids: [], all: false }, 'alice');
    expect(outcome).toMatchObject({ ok: false, code: 'usage', error: expect.stringContaining('say which with --call ID; waiting: ap_') });
    const [first] = await store!.operatorRequests.list(runId);
    expect(await decideRequests(store!, runId, { kind: 'answer', id: first!.id, answer: { text: 'x' } }, 'alice')).toMatchObject({ ok: false, code: 'usage', error: `${first!.id} is a call waiting for approval: use squadron approve or deny` });
    expect(await decideRequests(store!, runId, { kind: 'approve', ids: [], all: true }, 'alice')).toMatchObject({ ok: true, decided: [{ status: 'approved' }, { status: 'approved' }] });
    expect(await decideRequests(store!, 'run_nope', { kind: 'approve', ids: [], all: true }, 'alice')).toMatchObject({ ok: false, code: 'not_found' });
  });
});
