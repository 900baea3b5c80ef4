// A task's own session (its commander's, or a direct task's worker's), opened or continued: a new
// one is opened with its objective as the instruction, and the caller's `begin`, in one commit; a
// stored one is continued from its conversation (`begin` still runs, in a step of its own). The
// `session.started` event is emitted in the opening commit; for a stored session the caller emits
// it when its session is ready.

import type { SessionRole, SessionRow } from '../../store/index.js';
import { durableStep, type StepTx } from '../kernel/durableStep.js';
import type { GivenSkill, GivenTool, RunEvent } from '../kernel/events.js';
import type { RunContext } from './runContext.js';
import { loadHistory } from '../session/session.js';
import type { SessionMessage } from '../session/sessionTypes.js';

export interface TaskSessionSpec {
  task: string;
  agent: string;
  role: SessionRole;
  model: string;
  /** Rendered only when the session is new (a stored one keeps its own). */
  systemPrompt: () => string;
  tools: GivenTool[];
  skills: GivenSkill[];
  discovery: boolean;
  objective: string;
}

export interface TaskSession {
  row: SessionRow;
  history: SessionMessage[];
  /** Whether the session was stored before (a resumed run). */
  resumed: boolean;
  /** Its `session.started` event. */
  started: RunEvent;
}

export async function openTaskSession(ctx: RunContext, spec: TaskSessionSpec, begin?: (tx: StepTx) => Promise<void>): Promise<TaskSession> {
  const { store } = ctx;
  const stored = await store.sessions.get(ctx.runId, spec.task, spec.agent);
  const started = (sessionId: string): RunEvent => ({
    type: 'session.started',
    task: spec.task,
    agent: spec.agent,
    sessionId,
    model: spec.model,
    tools: spec.tools,
    skills: spec.skills,
    discovery: spec.discovery,
    resumed: stored !== undefined,
  });
  if (stored !== undefined) {
    if (begin) await durableStep(store, ctx.bus, begin);
    return { row: stored, history: await loadHistory(store, stored.id), resumed: true, started: started(stored.id) };
  }
  const instruction: SessionMessage = { role: 'user', parts: [{ type: 'text', text: spec.objective }], kind: 'instruction' };
  const row = await durableStep(store, ctx.bus, async (tx) => {
    await begin?.(tx);
    const opened = await tx.store.sessions.open({
      runId: ctx.runId,
      task: spec.task,
      agent: spec.agent,
      role: spec.role,
      model: spec.model,
      systemPrompt: spec.systemPrompt(),
      tools: spec.tools,
      skills: spec.skills,
    });
    tx.emit(started(opened.id));
    await tx.store.messages.append(opened.id, { role: 'user', parts: instruction.parts, turn: 1, kind: 'instruction' });
    return opened;
  });
  return { row, history: [instruction], resumed: false, started: started(row.id) };
}
