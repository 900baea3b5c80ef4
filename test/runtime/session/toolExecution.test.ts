// The tool-call ledger decides before the toolbox: what a call did before a restart is what the model
// is told, even when the tool is not available any more.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { executeToolCalls, INTERRUPTED_MESSAGE } from '../../../runtime/session/toolExecution.js';
import type { SessionDeps } from '../../../runtime/session/sessionTypes.js';
import { Toolbox, type InterruptionPolicy, type SessionTool } from '../../../runtime/tools/toolbox.js';
import { EventBus, type EventScope, type RunEvent } from '../../../runtime/kernel/events.js';
import type { ToolResult } from '../../../runtime/tools/types.js';
import { openStore, type Store } from '../../../store/index.js';

let store: Store | undefined;
let observer: Database.Database | undefined;
afterEach(async () => {
  observer?.close();
  observer = undefined;
  await store?.close();
});

async function setup(toolbox: Toolbox): Promise<{ deps: SessionDeps; sessionId: string }> {
  store = openStore(join(mkdtempSync(join(tmpdir(), 'sq-ledger-')), 'db.sqlite'));
  const run = await store.runs.create({ mission: 'm', configPath: '/p', inputs: {} });
  const session = await store.sessions.open({ runId: run.id, task: 't', agent: 'worker', role: 'agent', model: 'x', systemPrompt: 's', tools: [], skills: [] });
  const deps = {
    store,
    bus: new EventBus(),
    runId: run.id,
    task: 't',
    agent: 'worker',
    sessionId: session.id,
    toolbox,
    resultMaxTokens: 16_000,
    signal: new AbortController().signal,
  } as unknown as SessionDeps;
  return { deps, sessionId: session.id };
}

const call = { type: 'tool_use' as const, id: 'toolu_1', name: 'mcp_crm_create_ticket', input: { title: 'x' } };

describe('executeToolCalls and the ledger', () => {
  it('replays a completed call from the ledger even though its tool is gone', async () => {
    const { deps, sessionId } = await setup(new Toolbox([]));
    await store!.ledger.recordStarted({ sessionId, callId: 'toolu_1', toolRef: 'mcp.crm.create_ticket', apiName: call.name, input: call.input, idempotent: false });
    await store!.ledger.recordCompleted(sessionId, 'toolu_1', { content: [{ type: 'text', text: 'ticket #7 created' }], isError: false });
    const [result] = await executeToolCalls(deps, [call]);
    expect(result).toEqual({ type: 'tool_result', toolUseId: 'toolu_1', isError: false, content: [{ type: 'text', text: 'ticket #7 created' }] });
  });

  it('reports a started call of a vanished tool as interrupted, not as never executed', async () => {
    const { deps, sessionId } = await setup(new Toolbox([]));
    await store!.ledger.recordStarted({ sessionId, callId: 'toolu_1', toolRef: 'mcp.crm.create_ticket', apiName: call.name, input: call.input, idempotent: false });
    const [result] = await executeToolCalls(deps, [call]);
    expect(result!.isError).toBe(true);
    expect(result!.content).toEqual([{ type: 'text', text: INTERRUPTED_MESSAGE }]);
    expect((await store!.ledger.get(sessionId, 'toolu_1'))?.status).toBe('completed');
  });

  it('refuses an unknown tool with no ledger entry and records nothing', async () => {
    const { deps, sessionId } = await setup(new Toolbox([]));
    const [result] = await executeToolCalls(deps, [call]);
    expect(result!.isError).toBe(true);
    expect(result!.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Unknown tool "mcp_crm_create_ticket"') });
    expect(await store!.ledger.get(sessionId, 'toolu_1')).toBeUndefined();
  });
});

/** A tool whose calls finish when the test says so; `onStart` sees each call begin. */
function heldTool(name: string, onInterrupted: InterruptionPolicy, onStart: (callId: string) => void = () => {}) {
  const release = new Map<string, (r: ToolResult) => void>();
  const tool: SessionTool = {
    ref: `tools.${name}`,
    definition: { name, description: name, inputSchema: { type: 'object' } },
    onInterrupted,
    execute: (call) => {
      onStart(call.callId);
      return new Promise<ToolResult>((resolve) => release.set(call.callId, resolve));
    },
  };
  const finish = async (callId: string): Promise<void> => {
    for (let i = 0; i < 100 && !release.has(callId); i++) await new Promise((r) => setImmediate(r));
    release.get(callId)!({ content: [{ type: 'text', text: `${callId} done` }], isError: false });
    // Let the finished call's bookkeeping run before the test looks.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { tool, finish };
}

describe('executeToolCalls commits', () => {
  /** What another connection sees: only committed rows. */
  const committed = (sessionId: string) =>
    Object.fromEntries(
      (observer!.prepare('SELECT call_id, status FROM tool_calls WHERE session_id = ?').all(sessionId) as { call_id: string; status: string }[]).map((r) => [r.call_id, r.status]),
    );
  const committedEvents = (): string[] => (observer!.prepare('SELECT type FROM events ORDER BY id').all() as { type: string }[]).map((r) => r.type);
  const use = (id: string, name: string) => ({ type: 'tool_use' as const, id, name, input: {} });

  function wire(deps: SessionDeps): void {
    observer = new Database(store!.path, { readonly: true });
    // As the run's store sink does: an event emitted in a durable step is written in its transaction.
    deps.bus.subscribe('store', (event: RunEvent, scope?: EventScope) => {
      const written = (scope?.store ?? store!).events.append({ runId: deps.runId, type: event.type, sessionId: deps.sessionId, data: event });
      scope?.writes.push(written);
    });
  }

  it('commits every call start, with its event, before the first tool runs', async () => {
    const seen: Record<string, string>[] = [];
    const events: string[][] = [];
    const write = heldTool('write', 'report', () => {
      seen.push(committed(sessionId));
      events.push(committedEvents());
    });
    const read = heldTool('read', 'rerun');
    const { deps, sessionId } = await setup(new Toolbox([write.tool, read.tool]));
    wire(deps);
    const done = executeToolCalls(deps, [use('c1', 'write'), use('c2', 'read'), use('c3', 'write')], {
      opening: { write: (tx) => tx.emit({ type: 'warning', message: 'opening' }) },
    });
    await write.finish('c1');
    await read.finish('c2');
    await write.finish('c3');
    await done;
    expect(seen[0]).toEqual({ c1: 'started', c2: 'started', c3: 'started' });
    expect(events[0]).toEqual(['warning', 'tool.started', 'tool.started', 'tool.started']);
  });

  it('makes a result that cannot be re-run durable at once, and a re-runnable one with the step', async () => {
    const write = heldTool('write', 'report');
    const read = heldTool('read', 'rerun');
    const { deps, sessionId } = await setup(new Toolbox([write.tool, read.tool]));
    wire(deps);
    const persisted: string[] = [];
    const done = executeToolCalls(deps, [use('c1', 'read'), use('c2', 'write'), use('c3', 'read')], {
      persist: async (results, tx) => {
        await tx.store.messages.append(sessionId, { role: 'user', parts: results, turn: 1, kind: 'tool_results' });
        persisted.push('message');
      },
    });
    await read.finish('c1');
    // A finished read waits for the step (it would simply run again after a crash).
    expect(committed(sessionId)).toEqual({ c1: 'started', c2: 'started', c3: 'started' });
    await write.finish('c2');
    // A finished write while c3 still runs: committed now, with the read that finished before it.
    expect(committed(sessionId)).toEqual({ c1: 'completed', c2: 'completed', c3: 'started' });
    expect(committedEvents().filter((t) => t === 'tool.finished')).toHaveLength(2);
    expect(persisted).toEqual([]);
    await read.finish('c3');
    await done;
    // The last result and the message: one commit.
    expect(committed(sessionId)).toEqual({ c1: 'completed', c2: 'completed', c3: 'completed' });
    expect(persisted).toEqual(['message']);
    expect((observer!.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?').get(sessionId) as { n: number }).n).toBe(1);
  });
});
