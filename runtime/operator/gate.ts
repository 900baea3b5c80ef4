// The operator's step in a tool call's plan (toolExecution.ts): a call that needs approval runs only
// once approved, and a denied one is answered with the operator's reason instead; a human.ask call is
// answered with the operator's answer. Either waits ('parked') when nobody can decide now.

import { parseItemLabel } from '../../core/sessionLabels.js';
import type { LedgerRow, NewOperatorRequest } from '../../store/index.js';
import type { ToolUsePart } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import type { OperatorDesk } from './desk.js';
import type { SessionTool } from '../tools/toolbox.js';
import { answerResult, askedQuestion, HUMAN_ASK } from './question.js';
import type { OperatorAnswer } from './types.js';

export type OperatorPlan =
  /** Nothing to ask, or approved: the call runs as any other. */
  | { kind: 'run' }
  /** Answered without running the tool (denied, a question's answer); stored in the ledger. */
  | { kind: 'answered'; result: ToolResult }
  /** Waits for the operator: nothing runs, the session stops. */
  | { kind: 'parked' };

/** What the step reads of the session making the call. */
export interface OperatorStepDeps {
  operator?: OperatorDesk;
  runId: string;
  task: string;
  agent: string;
  sessionId: string;
}

export async function operatorPlan(deps: OperatorStepDeps, call: ToolUsePart, tool: SessionTool, stored: LedgerRow | undefined): Promise<OperatorPlan> {
  const question = tool.ref === HUMAN_ASK;
  if (!question && (tool.approval === undefined || (stored !== undefined && stored.status !== 'pending_approval'))) return { kind: 'run' };
  const desk = deps.operator;
  if (!desk) return { kind: 'answered', result: refusal(`${call.name} needs the operator, and nobody can be asked here; it was not executed.`) };
  const item = parseItemLabel(deps.task);
  const base: Omit<NewOperatorRequest, 'kind' | 'payload'> = {
    runId: deps.runId,
    task: deps.task,
    ...(item ? { item: item.index } : {}),
    agent: deps.agent,
    sessionId: deps.sessionId,
    callId: call.id,
    toolRef: tool.ref,
  };
  if (question) {
    const asked = askedQuestion(call.input);
    if ('error' in asked) return { kind: 'answered', result: refusal(asked.error) };
    const row = await desk.resolve({ ...base, kind: 'question', payload: asked }, { question: asked });
    if (row === 'parked') return { kind: 'parked' };
    return { kind: 'answered', result: answerResult(row.status === 'declined' ? 'declined' : 'answered', row.answer as OperatorAnswer | undefined, row.reason) };
  }
  const row = await desk.resolve({ ...base, kind: 'approval', payload: call.input }, { input: call.input, via: tool.approval }, (tx) =>
    tx.ledger.recordPending({ sessionId: deps.sessionId, callId: call.id, toolRef: tool.ref, apiName: call.name, input: call.input, idempotent: tool.onInterrupted !== 'report' }),
  );
  if (row === 'parked') return { kind: 'parked' };
  if (row.status === 'approved') return { kind: 'run' };
  const by = row.decidedBy ? ` (${row.decidedBy})` : '';
  return { kind: 'answered', result: refusal(`The operator${by} denied this call, so it was not executed. Reason: ${row.reason ?? 'none given'}`) };
}

function refusal(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
