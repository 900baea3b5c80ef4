import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { AgentSession, loadHistory } from '../../../runtime/session/session.js';
import type { SessionDeps, SessionMessage } from '../../../runtime/session/sessionTypes.js';
import { freshStore, seedSession } from '../../store/fixtures.js';

const user = (text: string, callId?: string): SessionMessage => ({ role: 'user', parts: [{ type: 'text', text }], kind: 'instruction', ...(callId ? { callId } : {}) });
const answer = (text: string): SessionMessage => ({ role: 'assistant', parts: [{ type: 'text', text }] });

describe('AgentSession.answerAfter', () => {
  const session = (history: SessionMessage[]) => AgentSession.restore({} as SessionDeps, history);

  it("gives each instruction the reply that ended its own stretch, not a later call's", async () => {
    const s = await session([user('first', 'c1'), answer('one'), user('second', 'c2'), answer('two')]);
    expect(await s.answerAfter(s.instructionIndex('c1'))).toBe('one');
    expect(await s.answerAfter(s.instructionIndex('c2'))).toBe('two');
  });

  it('has no answer while the instruction is still being worked on', async () => {
    const working: SessionMessage = { role: 'assistant', parts: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] };
    expect(await (await session([user('first', 'c1'), working])).answerAfter(0)).toBeUndefined();
    expect(await (await session([user('first', 'c1')])).answerAfter(0)).toBeUndefined();
  });
});

describe('AgentSession.restore from the store', () => {
  /** A stored session: an answered instruction, then a second one; `edit` runs on the file after. */
  async function stored(edit: string) {
    const store = freshStore();
    const { runId, sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'first' }], turn: 1, kind: 'instruction', callId: 'c1' });
    await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'one' }], turn: 1 });
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'second' }], turn: 2, kind: 'instruction', callId: 'c2' });
    await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'two' }], turn: 2 });
    const raw = new Database(store.path);
    raw.prepare(edit).run();
    raw.close();
    const deps = { store, sessionId, runId } as unknown as SessionDeps;
    return { store, sessionId, deps };
  }

  it('finds a stored answer reading only the messages from that answer on', async () => {
    // The first instruction's parts are made unreadable: reading the whole conversation fails.
    const { store, sessionId, deps } = await stored(`UPDATE messages SET parts_json = '[{"type":"text"}]', checksum = NULL WHERE seq = 1`);
    await expect(loadHistory(store, sessionId)).rejects.toThrow(/messages \d+ parts_json/);
    const s = await AgentSession.restore(deps);
    expect([s.length, s.turnsTaken]).toEqual([4, 2]);
    expect(await s.answerAfter(s.instructionIndex('c2'))).toBe('two');
    await store.close();
  });

  it('reads the earlier parts it needs when asked for an earlier answer', async () => {
    const { store, deps } = await stored('SELECT 1');
    const s = await AgentSession.restore(deps);
    expect(await s.answerAfter(s.instructionIndex('c1'))).toBe('one');
    expect(await s.answerAfter(s.instructionIndex('c2'))).toBe('two');
    await store.close();
  });
});
