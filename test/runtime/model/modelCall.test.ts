// The one seam for model calls (runtime/model/modelCall.ts) on its own, with a real budget ledger and
// a client that records what reached it: a call is reserved, then the event barrier passes, then it
// is sent; a call no budget can afford is never sent; a failed call gives its reservation back; a
// reply settles its real spend once the caller stored it.

import { describe, expect, it } from 'vitest';
import { BudgetLedger, type BudgetState } from '../../../runtime/budget/ledger.js';
import { BudgetStopped } from '../../../runtime/budget/gate.js';
import { gatedClient, UNGATED, type CallGate } from '../../../runtime/model/modelCall.js';
import type { SessionModel } from '../../../runtime/kernel/session.js';
import { ModelCallError, type ModelClient, type ModelRequest, type ModelResponse } from '../../../runtime/providers/types.js';

const MODEL: SessionModel = {
  apiModel: 'm',
  label: 'fake.m',
  // $1 per thousand output tokens: a call with max 1,000 output tokens reserves a little over $1.
  pricing: { input: 0.001, output: 1000, cacheRead: 0.001, cacheWrite: 0.001 },
  maxOutputTokens: 1000,
  contextWindow: 200_000,
  contextWindowVia: 'catalog',
};

const request = (agent = 'worker'): ModelRequest => ({
  model: 'm',
  system: 'You are a worker.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'Go.' }] }],
  tools: [],
  maxOutputTokens: 1000,
  trace: { task: 'research', agent, turn: 1 },
});

const reply = (outputTokens: number): ModelResponse => ({
  message: { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
  stopReason: 'end_turn',
  usage: { inputTokens: 10, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
  model: 'm',
});

function ledger(dollars: number): BudgetLedger {
  const state: BudgetState = { limits: new Map([['mission', { dollars }]]), settled: new Map(), elapsedBefore: new Map(), warned: new Set() };
  return new BudgetLedger(state, () => {});
}

/** A client that records each step in `log` and answers from `answer`. */
function recording(log: string[], answer: () => Promise<ModelResponse>): ModelClient {
  return {
    provider: 'anthropic',
    complete: async (req) => {
      log.push(`sent ${req.trace.agent}`);
      return answer();
    },
  };
}

function gate(budget: BudgetLedger | undefined, log: string[]): CallGate {
  return {
    budget: () => budget,
    barrier: async () => {
      log.push('barrier');
    },
  };
}

describe('gatedClient', () => {
  it('reserves, passes the barrier, then sends; the reply settles its real spend after the commit', async () => {
    const log: string[] = [];
    const budget = ledger(3);
    const client = gatedClient(recording(log, async () => reply(500)), MODEL, gate(budget, log));
    const sent = await client.call(request());
    expect(log).toEqual(['barrier', 'sent worker']);
    expect(sent.costUsd).toBeCloseTo(0.5, 4);
    sent.settled();
    expect(budget.spent('mission').dollars).toBeCloseTo(0.5, 4);
  });

  it('never sends a call the budget cannot afford, and stops with the budget named', async () => {
    const log: string[] = [];
    const client = gatedClient(recording(log, async () => reply(500)), MODEL, gate(ledger(0.5), log));
    const refused = await client.call(request('summary')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BudgetStopped);
    expect((refused as BudgetStopped).message).toMatch(/^the mission budget cannot afford the next model call: \$0\.0000 spent of \$0\.5000, and the call may cost up to \$1\.\d{4}$/);
    // Neither the barrier nor the request: nothing left.
    expect(log).toEqual([]);
  });

  it('gives the reservation back when the call fails', async () => {
    const log: string[] = [];
    const budget = ledger(1.5);
    const failing = gatedClient(recording(log, async () => Promise.reject(new ModelCallError('500 server error', 500))), MODEL, gate(budget, log));
    await expect(failing.call(request())).rejects.toBeInstanceOf(ModelCallError);
    // The failed call's $1 bound was released: the next one (another $1 bound) fits a $1.50 budget.
    const next = gatedClient(recording(log, async () => reply(100)), MODEL, gate(budget, log));
    const sent = await next.call(request());
    expect(sent.response.stopReason).toBe('end_turn');
    expect(log).toEqual(['barrier', 'sent worker', 'barrier', 'sent worker']);
  });

  it('outside a run (UNGATED) sends at once, and a replayed reply costs nothing', async () => {
    const log: string[] = [];
    const client = gatedClient(recording(log, async () => ({ ...reply(500), replayed: true })), MODEL, UNGATED);
    const sent = await client.call(request('judge'));
    expect(log).toEqual(['sent judge']);
    expect(sent.costUsd).toBe(0);
  });
});
