// What `squadron approve`, `deny` and `answer` record: the operator's decision on a waiting request,
// checked against it first (the right kind, still pending, an answer that fits the question). The
// run itself continues with `resume`, which finds the decisions where its calls wait.

import type { OperatorDecision, OperatorRequestRow, Store } from '../../store/index.js';
import { answerProblem } from './question.js';
import type { OperatorAnswer, QuestionPayload } from './types.js';

export type DecideAction =
  | { kind: 'approve'; ids: string[]; all: boolean; reason?: string }
  | { kind: 'deny'; id?: string; reason: string }
  | { kind: 'answer'; id?: string; answer: OperatorAnswer }
  | { kind: 'decline'; id?: string; reason?: string };

export type DecideOutcome =
  | { ok: true; decided: OperatorRequestRow[] }
  | { ok: false; code: 'not_found' | 'refused' | 'usage'; error: string };

export async function decideRequests(store: Store, runId: string, action: DecideAction, who: string): Promise<DecideOutcome> {
  if ((await store.runs.get(runId)) === undefined) return { ok: false, code: 'not_found', error: `no run ${runId}` };
  const all = await store.operatorRequests.list(runId);
  const kind = action.kind === 'approve' || action.kind === 'deny' ? 'approval' : 'question';
  const pending = all.filter((r) => r.status === 'pending' && r.kind === kind);
  const flag = kind === 'approval' ? '--call' : '--question';
  const listed = pending.length === 0 ? `run ${runId} has no ${kind === 'approval' ? 'call waiting for approval' : 'question waiting for an answer'}` : `waiting: ${pending.map((r) => `${r.id} (${r.toolRef}, task ${r.task})`).join(', ')}`;

  const pick = (id: string): OperatorRequestRow | DecideOutcome => {
    const row = all.find((r) => r.id === id);
    if (!row) return { ok: false, code: 'not_found', error: `run ${runId} has no request ${id}; ${listed}` };
    if (row.kind !== kind) return { ok: false, code: 'usage', error: `${id} is ${row.kind === 'approval' ? 'a call waiting for approval: use squadron approve or deny' : 'a question: use squadron answer'}` };
    if (row.status !== 'pending') return { ok: false, code: 'refused', error: `${id} was already decided: ${row.status} by ${row.decidedBy ?? '?'} at ${row.decidedAt ?? '?'}` };
    return row;
  };
  const only = (id: string | undefined): OperatorRequestRow | DecideOutcome => {
    if (id !== undefined) return pick(id);
    if (pending.length === 1) return pending[0]!;
    return { ok: false, code: pending.length === 0 ? 'refused' : 'usage', error: pending.length === 0 ? listed : `say which with ${flag} ID; ${listed}` };
  };

  let targets: OperatorRequestRow[];
  if (action.kind === 'approve') {
    if (action.all) targets = pending;
    else if (action.ids.length > 0) {
      targets = [];
      for (const id of action.ids) {
        const row = pick(id);
        if ('ok' in row) return row;
        targets.push(row);
      }
    } else {
      const row = only(undefined);
      if ('ok' in row) return row;
      targets = [row];
    }
    if (targets.length === 0) return { ok: false, code: 'refused', error: listed };
  } else {
    const row = only(action.id);
    if ('ok' in row) return row;
    targets = [row];
  }

  let decision: OperatorDecision;
  switch (action.kind) {
    case 'approve':
      decision = { status: 'approved', by: who, ...(action.reason ? { reason: action.reason } : {}) };
      break;
    case 'deny':
      decision = { status: 'denied', by: who, reason: action.reason };
      break;
    case 'decline':
      decision = { status: 'declined', by: who, ...(action.reason ? { reason: action.reason } : {}) };
      break;
    case 'answer': {
      const problem = answerProblem(targets[0]!.payload as QuestionPayload, action.answer);
      if (problem) return { ok: false, code: 'usage', error: `${targets[0]!.id}: ${problem}` };
      decision = { status: 'answered', by: who, answer: action.answer };
      break;
    }
  }
  const decided: OperatorRequestRow[] = [];
  await store.transaction(async (tx) => {
    for (const row of targets) {
      if (!(await tx.operatorRequests.decide(runId, row.id, decision))) continue;
      decided.push((await tx.operatorRequests.get(runId, row.id))!);
    }
  });
  if (decided.length === 0) return { ok: false, code: 'refused', error: `${targets.map((t) => t.id).join(', ')} was decided meanwhile` };
  return { ok: true, decided };
}
