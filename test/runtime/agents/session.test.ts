import { describe, expect, it } from 'vitest';
import { AgentSession } from '../../../runtime/agents/session.js';
import type { SessionDeps, SessionMessage } from '../../../runtime/agents/sessionTypes.js';

const user = (text: string, callId?: string): SessionMessage => ({ role: 'user', parts: [{ type: 'text', text }], kind: 'instruction', ...(callId ? { callId } : {}) });
const answer = (text: string): SessionMessage => ({ role: 'assistant', parts: [{ type: 'text', text }] });

describe('AgentSession.answerAfter', () => {
  const session = (history: SessionMessage[]) => AgentSession.restore({} as SessionDeps, history);

  it("gives each instruction the reply that ended its own stretch, not a later call's", async () => {
    const s = await session([user('first', 'c1'), answer('one'), user('second', 'c2'), answer('two')]);
    expect(s.answerAfter(s.instructionIndex('c1'))).toBe('one');
    expect(s.answerAfter(s.instructionIndex('c2'))).toBe('two');
  });

  it('has no answer while the instruction is still being worked on', async () => {
    const working: SessionMessage = { role: 'assistant', parts: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] };
    expect((await session([user('first', 'c1'), working])).answerAfter(0)).toBeUndefined();
    expect((await session([user('first', 'c1')])).answerAfter(0)).toBeUndefined();
  });
});
