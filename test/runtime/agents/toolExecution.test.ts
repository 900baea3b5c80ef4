// The tool-call ledger decides before the toolbox: what a call did before a restart is what the model
// is told, even when the tool is not available any more.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeToolCalls, INTERRUPTED_MESSAGE } from '../../../runtime/agents/toolExecution.js';
import type { SessionDeps } from '../../../runtime/agents/sessionTypes.js';
import { Toolbox } from '../../../runtime/agents/toolbox.js';
import { EventBus } from '../../../runtime/events.js';
import { openStore, type Store } from '../../../store/index.js';

let store: Store | undefined;
afterEach(() => store?.close());

function setup(toolbox: Toolbox): { deps: SessionDeps; sessionId: string } {
  store = openStore(join(mkdtempSync(join(tmpdir(), 'sq-ledger-')), 'db.sqlite'));
  const run = store.runs.create({ mission: 'm', configPath: '/p', inputs: {} });
  const session = store.sessions.open({ runId: run.id, task: 't', agent: 'worker', role: 'agent', model: 'x', systemPrompt: 's', tools: [], skills: [] });
  const deps = {
    store,
    bus: new EventBus(),
    runId: run.id,
    task: 't',
    agent: 'worker',
    sessionId: session.id,
    toolbox,
    signal: new AbortController().signal,
  } as unknown as SessionDeps;
  return { deps, sessionId: session.id };
}

const call = { type: 'tool_use' as const, id: 'toolu_1', name: 'mcp_crm_create_ticket', input: { title: 'x' } };

describe('executeToolCalls and the ledger', () => {
  it('replays a completed call from the ledger even though its tool is gone', async () => {
    const { deps, sessionId } = setup(new Toolbox([]));
    store!.ledger.recordStarted({ sessionId, callId: 'toolu_1', toolRef: 'mcp.crm.create_ticket', apiName: call.name, input: call.input, idempotent: false });
    store!.ledger.recordCompleted(sessionId, 'toolu_1', { content: [{ type: 'text', text: 'ticket #7 created' }], isError: false });
    const [result] = await executeToolCalls(deps, [call]);
    expect(result).toEqual({ type: 'tool_result', toolUseId: 'toolu_1', isError: false, content: [{ type: 'text', text: 'ticket #7 created' }] });
  });

  it('reports a started call of a vanished tool as interrupted, not as never executed', async () => {
    const { deps, sessionId } = setup(new Toolbox([]));
    store!.ledger.recordStarted({ sessionId, callId: 'toolu_1', toolRef: 'mcp.crm.create_ticket', apiName: call.name, input: call.input, idempotent: false });
    const [result] = await executeToolCalls(deps, [call]);
    expect(result!.isError).toBe(true);
    expect(result!.content).toEqual([{ type: 'text', text: INTERRUPTED_MESSAGE }]);
    expect(store!.ledger.get(sessionId, 'toolu_1')?.status).toBe('completed');
  });

  it('refuses an unknown tool with no ledger entry and records nothing', async () => {
    const { deps, sessionId } = setup(new Toolbox([]));
    const [result] = await executeToolCalls(deps, [call]);
    expect(result!.isError).toBe(true);
    expect(result!.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Unknown tool "mcp_crm_create_ticket"') });
    expect(store!.ledger.get(sessionId, 'toolu_1')).toBeUndefined();
  });
});
