// A run's approval or question as every JSON document shows it (`runs --json`, `inspect --json`, the server).

import type { OperatorRequestRow } from '../store/index.js';

export function requestJson(r: OperatorRequestRow): Record<string, unknown> {
  return {
    id: r.id,
    kind: r.kind,
    task: r.task,
    ...(r.item !== undefined ? { item: r.item } : {}),
    agent: r.agent,
    tool: r.toolRef,
    call_id: r.callId,
    ...(r.kind === 'approval' ? { input: r.payload } : { question: r.payload }),
    status: r.status,
    ...(r.answer !== undefined ? { answer: r.answer } : {}),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    ...(r.decidedBy !== undefined ? { decided_by: r.decidedBy, decided_at: r.decidedAt } : {}),
    requested_at: r.createdAt,
  };
}
