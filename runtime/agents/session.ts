// The agent session loop: model ↔ tools until the model replies without a tool call (an agent's
// answer) or the commander's task is complete. The loop is driven only by the persisted
// conversation, so the same code continues a session after a crash: a trailing user message means a
// model call is due, a trailing assistant message with tool calls means those calls are due.

import type { Store } from '../../store/index.js';
import type { Part, ToolUsePart } from '../providers/types.js';
import { runModelTurn, type Announce } from './modelTurn.js';
import { RunInterrupted, type SessionDeps, type SessionMessage, type SessionOutcome } from './sessionTypes.js';
import { executeToolCalls } from './toolExecution.js';

export class AgentSession {
  /** Assistant messages held, and how many of them came before the latest instruction. */
  private assistants = 0;
  private assistantsBeforeInstruction = 0;

  private constructor(
    readonly deps: SessionDeps,
    private readonly messages: SessionMessage[],
  ) {
    // Counted once here and kept up by `append`: a turn never re-scans a long conversation.
    for (const message of messages) this.count(message);
  }

  /** Opens the session with its stored conversation (empty for a new session). */
  static async restore(deps: SessionDeps, history?: SessionMessage[]): Promise<AgentSession> {
    return new AgentSession(deps, history ?? (await loadHistory(deps.store, deps.sessionId)));
  }

  get history(): readonly SessionMessage[] {
    return this.messages;
  }

  get turnsTaken(): number {
    return this.assistants;
  }

  /**
   * Model turns since the latest instruction. The turn limit bounds one piece of work, so an agent
   * the commander calls many times is not starved by its earlier work.
   */
  private turnsSinceInstruction(): number {
    return this.assistants - this.assistantsBeforeInstruction;
  }

  private count(message: SessionMessage): void {
    if (message.kind === 'instruction') this.assistantsBeforeInstruction = this.assistants;
    if (message.role === 'assistant') this.assistants += 1;
  }

  /** Appends (and persists) a new instruction; `callId` ties it to the commander's call. */
  appendInstruction(parts: Part[], callId?: string, store: Store = this.deps.store): Promise<void> {
    const message: SessionMessage = { role: 'user', parts, kind: 'instruction' };
    if (callId !== undefined) message.callId = callId;
    return this.append(message, this.turnsTaken + 1, store);
  }

  /** Index of the instruction sent by a given commander call, or -1. */
  instructionIndex(callId: string): number {
    return this.messages.findIndex((m) => m.kind === 'instruction' && m.callId === callId);
  }

  /** The answer the session gave after message `index`, if it has finished answering. */
  answerAfter(index: number): string | undefined {
    // The answer to this instruction ends its stretch of the conversation (before any later one).
    let end = this.messages.findIndex((m, i) => i > index && m.kind === 'instruction');
    if (end < 0) end = this.messages.length;
    const last = this.messages[end - 1];
    if (end - 1 <= index || last?.role !== 'assistant' || toolUsesOf(last).length > 0) return undefined;
    return textOf(last);
  }

  async run(): Promise<SessionOutcome> {
    const { deps } = this;
    // The stored reply's event, when its tool calls are due next: stored with their starts.
    let announce: Announce | undefined;
    for (;;) {
      if (deps.signal.aborted) {
        announce?.((event) => deps.bus.emit(event));
        throw new RunInterrupted();
      }
      const last = this.messages[this.messages.length - 1];
      if (!last) return { kind: 'failed', reason: 'the session has no instruction to work on' };

      if (last.role === 'user') {
        // A commander resumed after its task_complete result was stored (the crash came before the
        // task was marked complete) has nothing left to ask the model.
        if (deps.isDone?.()) return { kind: 'done' };
        const turn = this.turnsTaken + 1;
        if (this.turnsSinceInstruction() >= deps.maxTurns) {
          return { kind: 'failed', reason: `turn limit reached (${deps.maxTurns} model turns on one instruction)` };
        }
        const result = await runModelTurn(deps, this.messages, turn, (m, t, store) => this.append(m, t, store));
        if (result.kind === 'failed') return result;
        announce = result.announce;
        continue;
      }

      const calls = toolUsesOf(last);
      if (calls.length > 0) {
        const opening = announce;
        announce = undefined;
        await executeToolCalls(deps, calls, {
          opening: opening && ((tx) => opening(tx.emit)),
          persist: (results, tx) => this.append({ role: 'user', parts: results, kind: 'tool_results' }, this.turnsTaken, tx.store),
        });
        if (deps.isDone?.()) return { kind: 'done' };
        continue;
      }

      if (deps.isDone?.()) return { kind: 'done' };
      if (deps.requireToolCall) {
        return { kind: 'failed', reason: 'the commander stopped calling tools before completing the task' };
      }
      return { kind: 'answer', text: textOf(last) };
    }
  }

  /** Stores the message through `store` (the session's, or the transaction it is part of), then holds it. */
  private async append(message: SessionMessage, turn: number, store: Store): Promise<void> {
    const row: { role: 'user' | 'assistant'; parts: Part[]; turn: number; kind?: string; callId?: string } = {
      role: message.role,
      parts: message.parts,
      turn,
    };
    if (message.kind) row.kind = message.kind;
    if (message.callId) row.callId = message.callId;
    await store.messages.append(this.deps.sessionId, row);
    this.messages.push(message);
    this.count(message);
  }
}

export async function loadHistory(store: Store, sessionId: string): Promise<SessionMessage[]> {
  return (await store.messages.list(sessionId)).map((row) => {
    // The row's parts are parsed when first read (a request built, an answer taken), not here.
    const m: SessionMessage = {
      role: row.role,
      get parts() {
        return row.parts;
      },
      set parts(value) {
        row.parts = value;
      },
    };
    if (row.kind) m.kind = row.kind as SessionMessage['kind'];
    if (row.callId) m.callId = row.callId;
    return m;
  });
}

export function toolUsesOf(message: SessionMessage): ToolUsePart[] {
  return message.parts.filter((p): p is ToolUsePart => p.type === 'tool_use');
}

export function textOf(message: SessionMessage): string {
  return message.parts
    .filter((p): p is Extract<Part, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n')
    .trim();
}
