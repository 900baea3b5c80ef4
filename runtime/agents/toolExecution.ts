// Executes the tool calls of one assistant turn against the write-ahead ledger. Calls run
// concurrently and their results keep the order of the calls. A call whose result is in the ledger is
// replayed, never re-run; one that started but never finished is re-run only when its tool says that
// is safe; a name the session does not hold is refused and nothing runs.

import type { ToolResultPart, ToolUsePart } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import { RunInterrupted, type SessionDeps } from './sessionTypes.js';

export const INTERRUPTED_MESSAGE =
  'This tool call was interrupted before it finished (the process stopped), so its effect is unknown. ' +
  'Check the current state before deciding whether to call it again.';

export async function executeToolCalls(deps: SessionDeps, calls: readonly ToolUsePart[]): Promise<ToolResultPart[]> {
  const results = new Array<ToolResultPart>(calls.length);
  const last = (call: ToolUsePart) => deps.toolbox.resolve(call.name)?.runsLast === true;
  await Promise.all(
    calls.map(async (call, i) => {
      if (!last(call)) results[i] = await executeOne(deps, call);
    }),
  );
  // Bookkeeping tools (submit_output, task_complete) see the effects of the turn's other calls.
  for (const [i, call] of calls.entries()) if (last(call)) results[i] = await executeOne(deps, call);
  return results;
}

async function executeOne(deps: SessionDeps, call: ToolUsePart): Promise<ToolResultPart> {
  const result = await resultFor(deps, call);
  const part: ToolResultPart = { type: 'tool_result', toolUseId: call.id, content: result.content, isError: result.isError };
  deps.onToolResult?.(call, part);
  return part;
}

async function resultFor(deps: SessionDeps, call: ToolUsePart): Promise<ToolResult> {
  const { store, bus, sessionId } = deps;
  // The ledger comes first: a call that ran before a restart is answered with what really happened,
  // even if its tool is no longer available (a server that fails to start now, a changed config).
  const stored = store.ledger.get(sessionId, call.id);
  if (stored?.status === 'completed' && stored.result) {
    emitFinished(deps, call, stored.toolRef, stored.result.isError, 0, true);
    return stored.result;
  }
  const resuming = stored?.status === 'started';
  const tool = deps.toolbox.resolve(call.name);
  if (resuming && (!tool || tool.onInterrupted === 'report')) {
    const result = refusal(INTERRUPTED_MESSAGE);
    store.ledger.recordCompleted(sessionId, call.id, result);
    emitFinished(deps, call, stored.toolRef, true, 0, true);
    return result;
  }
  if (!tool) return refusal(deps.toolbox.describeUnknown(call.name));
  if (call.malformedInput !== undefined) {
    return refusal(
      `The arguments of this ${call.name} call are not valid JSON, so it was not executed. ` +
        `Send the call again with a JSON object as arguments. Received: ${truncate(call.malformedInput, 300)}`,
    );
  }
  if (!stored) {
    store.ledger.recordStarted({
      sessionId,
      callId: call.id,
      toolRef: tool.ref,
      apiName: call.name,
      input: call.input,
      idempotent: tool.onInterrupted !== 'report',
    });
  }
  bus.emit({ type: 'tool.started', task: deps.task, agent: deps.agent, sessionId, callId: call.id, tool: tool.ref });
  const started = performance.now();
  let result: ToolResult;
  try {
    result = await tool.execute({ callId: call.id, input: call.input, signal: deps.signal });
  } catch (error) {
    if (error instanceof RunInterrupted || deps.signal.aborted) throw error instanceof RunInterrupted ? error : new RunInterrupted();
    result = refusal(`Tool ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  // A result produced while the run is being stopped may be an abort artefact: leave the call
  // `started` so resume decides (re-run when safe, otherwise report the interruption).
  if (deps.signal.aborted) throw new RunInterrupted();
  store.ledger.recordCompleted(sessionId, call.id, result);
  emitFinished(deps, call, tool.ref, result.isError, performance.now() - started, false);
  return result;
}

function emitFinished(deps: SessionDeps, call: ToolUsePart, toolRef: string, isError: boolean, durationMs: number, replayed: boolean): void {
  deps.bus.emit({
    type: 'tool.finished',
    task: deps.task,
    agent: deps.agent,
    sessionId: deps.sessionId,
    callId: call.id,
    tool: toolRef,
    isError,
    durationMs: Math.round(durationMs),
    replayed,
  });
}

function refusal(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
