// The operator requests' contract on every backend, and the ledger's pending_approval state: a
// request is opened once per call, decided once (the first decision wins), listed per run; a call
// waiting for approval becomes `started` when it runs, or `completed` straight away when denied.

import { describe, expect, it } from 'vitest';
import { createSecretRedactor } from '../../../store/index.js';
import { seedSession, useBackends } from './backends.js';

const SECRET = 'sk-operator-0123456789';
const call = (sessionId: string, callId: string) => ({ sessionId, callId, toolRef: 'tools.pay', apiName: 'tools_pay', input: { amount: 5 }, idempotent: false });

describe.each(useBackends())('$name store', (backend) => {
  describe('operator requests', () => {
    it('opens a request once per call, decides it once and lists what is pending', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const base = { runId, task: 'research', agent: 'worker', sessionId, toolRef: 'tools.pay' };
      const first = await store.operatorRequests.open({ ...base, callId: 'c1', kind: 'approval', payload: { amount: 5 } });
      const again = await store.operatorRequests.open({ ...base, callId: 'c1', kind: 'approval', payload: { amount: 5 } });
      expect(again.id).toBe(first.id);
      expect(first).toMatchObject({ kind: 'approval', status: 'pending', payload: { amount: 5 }, seq: 0 });
      expect(first.id).toMatch(/^ap_/);
      const question = await store.operatorRequests.open({ ...base, callId: 'c2', kind: 'question', item: 3, payload: { question: 'Which?' } });
      expect(question.id).toMatch(/^q_/);
      expect(question.item).toBe(3);
      expect((await store.operatorRequests.list(runId, { pendingOnly: true })).map((r) => r.id).sort()).toEqual([first.id, question.id].sort());
      expect((await store.operatorRequests.pending()).map((r) => r.id).sort()).toEqual([first.id, question.id].sort());

      expect(await store.operatorRequests.decide(runId, first.id, { status: 'denied', by: 'alice', reason: 'too much' })).toBe(true);
      expect(await store.operatorRequests.decide(runId, first.id, { status: 'approved', by: 'bob' })).toBe(false);
      const decided = await store.operatorRequests.get(runId, first.id);
      expect(decided).toMatchObject({ status: 'denied', decidedBy: 'alice', reason: 'too much' });
      expect(decided?.decidedAt).toBeDefined();
      await store.operatorRequests.decide(runId, question.id, { status: 'answered', by: 'alice', answer: { text: 'blue' } });
      expect(await store.operatorRequests.forCall(sessionId, 'c2', 'question')).toMatchObject({ status: 'answered', answer: { text: 'blue' } });
      expect(await store.operatorRequests.list(runId, { pendingOnly: true })).toEqual([]);
      expect(await store.operatorRequests.pending()).toEqual([]);
      expect(await store.operatorRequests.list(runId)).toHaveLength(2);
      expect(await store.operatorRequests.get(runId, 'ap_unknown')).toBeUndefined();
    });

    it('stores a secret in a payload, answer or reason redacted and restores it on read', async () => {
      const store = await backend.fresh({ redactor: createSecretRedactor([{ name: 'vars.token', value: SECRET }]) });
      const { runId, sessionId } = await seedSession(store);
      const r = await store.operatorRequests.open({ runId, task: 'research', agent: 'worker', sessionId, callId: 'c1', kind: 'question', toolRef: 'builtins.human.ask', payload: { question: `use ${SECRET}?` } });
      await store.operatorRequests.decide(runId, r.id, { status: 'answered', by: 'alice', answer: { text: SECRET }, reason: `because ${SECRET}` });
      expect((await backend.dump(store)).includes(SECRET)).toBe(false);
      expect(await store.operatorRequests.get(runId, r.id)).toMatchObject({ payload: { question: `use ${SECRET}?` }, answer: { text: SECRET }, reason: `because ${SECRET}` });
    });
  });

  describe('ledger: calls waiting for approval', () => {
    it('keeps a pending call pending until it is started, and never starts it twice', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.ledger.recordPending(call(sessionId, 'c1'));
      await store.ledger.recordPending(call(sessionId, 'c1'));
      expect((await store.ledger.get(sessionId, 'c1'))?.status).toBe('pending_approval');
      await store.ledger.recordStarted(call(sessionId, 'c1'));
      expect((await store.ledger.get(sessionId, 'c1'))?.status).toBe('started');
      await store.ledger.recordPending(call(sessionId, 'c1'));
      expect((await store.ledger.get(sessionId, 'c1'))?.status).toBe('started');
      await store.ledger.recordCompleted(sessionId, 'c1', { content: [{ type: 'text', text: 'paid' }], isError: false });
      await store.ledger.recordStarted(call(sessionId, 'c1'));
      expect((await store.ledger.get(sessionId, 'c1'))?.status).toBe('completed');
    });

    it('puts a started call back to pending (a question nobody could answer) and starts it again later', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.ledger.recordStarted(call(sessionId, 'c1'));
      await store.ledger.reopen(sessionId, 'c1');
      expect((await store.ledger.get(sessionId, 'c1'))?.status).toBe('pending_approval');
      await store.ledger.recordStarted(call(sessionId, 'c1'));
      await store.ledger.recordCompleted(sessionId, 'c1', { content: [{ type: 'text', text: 'ok' }], isError: false });
      await store.ledger.reopen(sessionId, 'c1');
      expect((await store.ledger.get(sessionId, 'c1'))?.status).toBe('completed');
    });

    it('completes a denied call straight from pending', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.ledger.recordPending(call(sessionId, 'c1'));
      await store.ledger.recordCompleted(sessionId, 'c1', { content: [{ type: 'text', text: 'denied: no' }], isError: true });
      expect(await store.ledger.get(sessionId, 'c1')).toMatchObject({ status: 'completed', result: { isError: true } });
    });
  });
});
