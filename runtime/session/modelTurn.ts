// One model turn: build the request from the persisted conversation, call the model, and make the
// reply durable together with its usage, its budget reservation settled and any follow-up the runtime
// must send (a truncation notice or a no-tool-call correction), so a crash never leaves a half-handled
// reply. A reply whose tool calls are due next is not committed here: it is handed back (`reply`) to
// go into the first commit that follows — the one that starts its calls, before any of them runs —
// so that a turn costs two commits, not three (docs/concepts/persistence.md).

import type { Store } from '../../store/index.js';
import type { StepTx } from '../kernel/durableStep.js';
import { durableStep } from '../kernel/durableStep.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import { ModelCallError, type ModelRequest, type Part, type ToolUsePart } from '../providers/types.js';
import { MAX_CORRECTIONS, MAX_TRUNCATIONS, RunInterrupted, type SessionDeps, type SessionMessage } from './sessionTypes.js';

/**
 * A reply held in the conversation but not stored yet: `write` stores it (the message, its usage, its
 * reservation settled, its `model.turn` event) in the transaction of the step that follows, which
 * must commit before anything acts on the reply; `committed` runs once that transaction committed.
 */
export interface PendingReply {
  write(tx: StepTx): Promise<void>;
  committed(): void;
}

export type TurnResult =
  | { kind: 'continue'; /** The reply, when its tool calls are due next: the caller commits it with their starts. */ reply?: PendingReply }
  | { kind: 'failed'; reason: string };

/** Where a turn puts its messages: `hold` adds one to the conversation, `store` writes it through `store`. */
export interface TurnLog {
  hold(message: SessionMessage): void;
  store(message: SessionMessage, turn: number, store: Store): Promise<void>;
}

export function buildRequest(deps: SessionDeps, messages: readonly SessionMessage[], turn: number): ModelRequest {
  const request: ModelRequest = {
    model: deps.model.apiModel,
    system: deps.systemPrompt,
    // The session's current view: everything, or a stored compaction or pruning and what it keeps.
    messages: deps.context.requestMessages(messages),
    tools: deps.toolbox.definitionsForTurn(),
    maxOutputTokens: deps.model.maxOutputTokens,
    trace: { task: deps.task, agent: deps.agent, turn },
  };
  if (deps.model.reasoning) request.reasoning = deps.model.reasoning;
  if (deps.model.reasoningForm) request.reasoningForm = deps.model.reasoningForm;
  return request;
}

export async function runModelTurn(
  deps: SessionDeps,
  messages: SessionMessage[],
  turn: number,
  log: TurnLog,
): Promise<TurnResult> {
  // The request as the context policy leaves it: a cut it asks for is stored before the request is sent.
  const prepared = await deps.context.prepare(deps, messages, turn, () => buildRequest(deps, messages, turn));
  if (prepared.kind === 'failed') return prepared;
  const { request } = prepared;
  // The client reserves the call against the budgets and stores the queued events before sending.
  let sent;
  try {
    sent = await deps.client.call(request, {
      signal: deps.signal,
      ...(deps.onTextDelta ? { onTextDelta: deps.onTextDelta } : {}),
      onRetry: (notice) =>
        deps.bus.emit({ type: 'model.retry', task: deps.task, agent: deps.agent, attempt: notice.attempt, delayMs: notice.delayMs, reason: notice.reason }),
    });
  } catch (error) {
    if (error instanceof RunInterrupted) throw error;
    if (deps.signal.aborted) throw new RunInterrupted();
    if (error instanceof ModelCallError) return { kind: 'failed', reason: error.message };
    throw error;
  }
  const { response, durationMs, costUsd } = sent;
  const assistant: SessionMessage = { role: 'assistant', parts: normalizeParts(response.message.parts) };
  const toolUses = assistant.parts.filter((p): p is ToolUsePart => p.type === 'tool_use');

  let followUp: SessionMessage | undefined;
  let failure: string | undefined;
  if (response.stopReason === 'max_tokens') {
    // Stored even when giving up: the cut-off tool calls get their error results, so the conversation
    // stays valid for a later instruction to the same agent or a resume.
    followUp = truncationFollowUp(toolUses, deps.model.maxOutputTokens);
    if (trailingCount(messages, 'truncation') >= MAX_TRUNCATIONS) {
      failure = `the model's reply was cut off at the output limit (${deps.model.maxOutputTokens} tokens) ${MAX_TRUNCATIONS + 1} times in a row`;
    }
  } else if (toolUses.length === 0 && deps.requireToolCall) {
    const corrections = trailingCount(messages, 'correction');
    if (corrections >= MAX_CORRECTIONS) {
      failure = `the commander replied without a tool call ${MAX_CORRECTIONS + 1} times in a row (after ${MAX_CORRECTIONS} corrections)`;
    } else {
      const text = renderPrompt('corrections', { noToolCall: true, attempt: corrections + 1, max: MAX_CORRECTIONS });
      followUp = { role: 'user', parts: [{ type: 'text', text: text.trim() }], kind: 'correction' };
    }
  }

  const facts = { task: deps.task, sessionId: deps.sessionId, turn, model: deps.model.apiModel, usage: response.usage, costUsd, durationMs, stopReason: response.stopReason };
  // What the provider reported for this request: the next request's check starts from it.
  deps.context.noteReply(request, messages.length, response.usage);
  const reply: PendingReply = {
    write: async (tx) => {
      await log.store(assistant, turn, tx.store);
      await tx.store.turns.record({ runId: deps.runId, ...facts });
      // The stored turn is the call's spend from now on: its reservation goes in the same transaction.
      await sent.settleIn(tx.store);
      tx.emit({ type: 'model.turn', agent: deps.agent, ...facts, ...(response.model && response.model !== facts.model ? { responseModel: response.model } : {}) });
    },
    committed: () => sent.settled(),
  };
  log.hold(assistant);
  if (failure === undefined && followUp === undefined && toolUses.length > 0) return { kind: 'continue', reply };
  // Nothing follows that could carry the reply: it is committed now, with its follow-up.
  await durableStep(deps.store, deps.bus, async (tx) => {
    await reply.write(tx);
    if (followUp) {
      await log.store(followUp, turn, tx.store);
      log.hold(followUp);
    }
  });
  reply.committed();
  return failure === undefined ? { kind: 'continue' } : { kind: 'failed', reason: failure };
}

/** Consecutive runtime follow-ups of one kind at the end of the conversation. */
export function trailingCount(messages: readonly SessionMessage[], kind: 'correction' | 'truncation'): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 1; i -= 2) {
    const message = messages[i];
    if (message?.role !== 'user' || message.kind !== kind) break;
    count += 1;
  }
  return count;
}

function truncationFollowUp(toolUses: readonly ToolUsePart[], limit: number): SessionMessage {
  const parts: Part[] = toolUses.map((use) => ({
    type: 'tool_result',
    toolUseId: use.id,
    isError: true,
    content: [{ type: 'text', text: 'This tool call was cut off by the output limit and was not executed.' }],
  }));
  const text = renderPrompt('corrections', { truncated: true, limit, droppedCalls: toolUses.length > 0 });
  parts.push({ type: 'text', text: text.trim() });
  return { role: 'user', parts, kind: 'truncation' };
}

/** Providers may return an empty text block next to tool calls; keep history minimal and valid. */
function normalizeParts(parts: readonly Part[]): Part[] {
  // A blank text part goes, unless it carries a thought signature (Gemini wants it back).
  const kept = parts.filter((p) => !(p.type === 'text' && p.text.trim() === '' && p.thoughtSignature === undefined && parts.length > 1));
  return kept.length > 0 ? kept : [{ type: 'text', text: '(empty reply)' }];
}
