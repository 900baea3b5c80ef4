// The agent session loop: model ↔ tools until the model replies without a tool call (an agent's
// answer) or the commander's task is complete. The loop is driven only by the persisted
// conversation, so the same code continues a session after a crash: a trailing user message means a
// model call is due, a trailing assistant message with tool calls means those calls are due.

import type { MessageRow, Store } from '../../store/index.js';
import type { Part, ToolUsePart } from '../providers/types.js';
import { textOfParts } from '../../core/messages.js';
import { runModelTurn, type PendingReply, type TurnLog } from './modelTurn.js';
import { durableStep } from '../kernel/durableStep.js';
import type { RunEvent } from '../kernel/events.js';
import { RunInterrupted, type MessageKind, type SessionDeps, type SessionMessage, type SessionOutcome } from './sessionTypes.js';
import { executeToolCalls } from './toolExecution.js';
import { LoopWatch, progressLimit } from './loopGuard.js';
import { indices, readStoredParts, unreadParts } from '../context/storedParts.js';
import type { ToolResult } from '../tools/types.js';

export class AgentSession {
  /** Assistant messages held, and how many of them came before the latest instruction. */
  private assistants = 0;
  private assistantsBeforeInstruction = 0;
  /** The loop guards' state, made once all parts are read and kept up by `hold` from then on. */
  private watch: LoopWatch | undefined;

  private constructor(
    readonly deps: SessionDeps,
    /** A message whose parts are still in the store holds a stub (runtime/context/storedParts.ts). */
    private readonly messages: SessionMessage[],
  ) {
    // Counted once here and kept up by `append`: a turn never re-scans a long conversation.
    for (const message of messages) this.count(message);
  }

  /**
   * Opens the session with its stored conversation (empty for a new session), or with `history`. A
   * stored conversation is not read whole to find its place: its messages' heads are, and then only
   * the parts a step needs: the last message's now; those a request sends or a cut is made from when
   * a request is built (runtime/context/sessionContext.ts, storedParts.ts).
   */
  static async restore(deps: SessionDeps, history?: SessionMessage[]): Promise<AgentSession> {
    if (history) return new AgentSession(deps, history);
    const messages = (await deps.store.messages.heads(deps.sessionId)).map((head) => {
      const m: SessionMessage = { role: head.role, parts: unreadParts(head.partsBytes) };
      if (head.kind) m.kind = head.kind as MessageKind;
      if (head.callId) m.callId = head.callId;
      return m;
    });
    const session = new AgentSession(deps, messages);
    await session.readParts(messages.length - 1);
    return session;
  }

  /** How many messages the conversation holds. */
  get length(): number {
    return this.messages.length;
  }

  /** Reads the parts of messages `from`… that are still in the store. */
  private async readParts(from: number): Promise<void> {
    await readStoredParts(this.deps.store, this.deps.sessionId, this.messages, indices(from, this.messages.length));
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
  async answerAfter(index: number): Promise<string | undefined> {
    // The answer to this instruction ends its stretch of the conversation (before any later one).
    let end = this.messages.findIndex((m, i) => i > index && m.kind === 'instruction');
    if (end < 0) end = this.messages.length;
    if (end - 1 <= index) return undefined;
    await this.readParts(end - 1);
    const last = this.messages[end - 1];
    if (end - 1 <= index || last?.role !== 'assistant' || toolUsesOf(last).length > 0) return undefined;
    return textOf(last);
  }

  async run(): Promise<SessionOutcome> {
    // The latest reply, held but not stored yet: its tool calls are due next and it goes into the
    // first commit that follows it (the one that starts them), or is committed on its own when the
    // session stops before that.
    const pending: { reply?: PendingReply | undefined } = {};
    try {
      return await this.steps(pending);
    } catch (error) {
      // A reply the loop left before its calls took it (the run stopping, an error): its model call
      // was spent, so the reply and its usage are stored all the same (a resume then runs its calls).
      if (pending.reply) await this.commitReply(pending.reply).catch(() => undefined); // the error on its way says more
      throw error;
    }
  }

  private async steps(pending: { reply?: PendingReply | undefined }): Promise<SessionOutcome> {
    const { deps } = this;
    const log: TurnLog = { hold: (m) => this.hold(m), store: (m, t, store) => this.store(m, t, store) };
    for (;;) {
      if (deps.signal.aborted) throw new RunInterrupted();
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
        // The context reads the stored parts the request needs (not necessarily all: see prepare).
        const result = await runModelTurn(deps, this.messages, turn, log);
        if (result.kind === 'failed') return result;
        pending.reply = result.reply;
        continue;
      }

      const calls = toolUsesOf(last);
      if (calls.length > 0) {
        const guard = deps.loopGuard ? await this.repeatGuard(calls) : undefined;
        const opening = pending.reply;
        pending.reply = undefined;
        // A session done after these results is closed in the same commit, unless the repeat guard
        // stops it (every call is then answered as not run, so nothing can complete).
        const close = guard?.stop ? undefined : deps.closeInStep;
        let closed = false;
        const events = guard?.events ?? [];
        await executeToolCalls(deps, calls, {
          opening:
            opening || events.length > 0
              ? {
                  write: async (tx) => {
                    await opening?.write(tx);
                    // The guard's verdict on this reply's calls is logged with the reply.
                    for (const event of events) tx.emit(event);
                  },
                  committed: () => opening?.committed(),
                }
              : undefined,
          persist: async (results, tx) => {
            await this.append({ role: 'user', parts: results, kind: 'tool_results' }, this.turnsTaken, tx.store);
            if (close && deps.isDone?.()) {
              await close(tx);
              closed = true;
            }
          },
          answers: guard?.answers,
        });
        if (guard?.stop) return { kind: 'failed', reason: guard.stop };
        // Done comes before the no-progress guard: the results that finished the task are its progress.
        if (deps.isDone?.()) return closed ? { kind: 'done', closed } : { kind: 'done' };
        const idle = deps.loopGuard ? await this.progressGuard() : undefined;
        if (idle) return { kind: 'failed', reason: idle };
        continue;
      }

      if (deps.isDone?.()) return { kind: 'done' };
      if (deps.requireToolCall) {
        return { kind: 'failed', reason: 'the commander stopped calling tools before completing the task' };
      }
      return { kind: 'answer', text: textOf(last) };
    }
  }

  private async commitReply(reply: PendingReply): Promise<void> {
    await durableStep(this.deps.store, this.deps.bus, (tx) => reply.write(tx));
    reply.committed();
  }

  /**
   * The repeated-call guard on the calls due: corrections to answer some with, or (`stop`) every call
   * answered as not run, so the conversation stays valid for a later instruction, and a reason to stop.
   */
  private async repeatGuard(calls: readonly ToolUsePart[]): Promise<{ answers?: Map<string, ToolResult>; stop?: string; events: RunEvent[] } | undefined> {
    const { deps } = this;
    const verdict = (await this.loopWatch()).repeatedCalls(calls, deps.loopGuard);
    if (verdict.kind === 'ok') return undefined;
    const base = { type: 'loop.detected' as const, task: deps.task, agent: deps.agent, sessionId: deps.sessionId, guard: 'repeated_call' as const, tool: verdict.tool, count: verdict.count };
    if (verdict.kind === 'correct') return { answers: verdict.answers, events: [{ ...base, action: 'corrected', message: verdict.message }] };
    const stopped: RunEvent = { ...base, action: 'stopped', message: `session stopped: ${verdict.reason}` };
    const notRun: ToolResult = { content: [{ type: 'text', text: `Not executed: this session was stopped because ${verdict.reason}.` }], isError: true };
    return { answers: new Map(calls.map((c) => [c.id, notRun])), stop: `stopped by the loop guard: ${verdict.reason}`, events: [stopped] };
  }

  /** The loop guards' view of the conversation, made from every message's parts when first needed. */
  private async loopWatch(): Promise<LoopWatch> {
    if (this.watch === undefined) {
      await this.readParts(0);
      this.watch = LoopWatch.over(this.messages);
    }
    return this.watch;
  }

  /** The no-progress guard after a turn's results are stored: a reason to stop, or undefined. */
  private async progressGuard(): Promise<string | undefined> {
    const { deps } = this;
    const limit = progressLimit(deps.loopGuard);
    const idle = (await this.loopWatch()).turnsWithoutProgress();
    if (idle < limit) return undefined;
    const reason = `its tool results brought nothing new for ${idle} turns in a row`;
    deps.bus.emit({ type: 'loop.detected', task: deps.task, agent: deps.agent, sessionId: deps.sessionId, guard: 'no_progress', action: 'stopped', count: idle, message: `session stopped: ${reason}` });
    return `stopped by the loop guard: ${reason}`;
  }

  /** Stores the message through `store` (the session's, or the transaction it is part of), then holds it. */
  private async append(message: SessionMessage, turn: number, store: Store): Promise<void> {
    await this.store(message, turn, store);
    this.hold(message);
  }

  /** Writes the message through `store`; the conversation holds it once `hold` is called. */
  private async store(message: SessionMessage, turn: number, store: Store): Promise<void> {
    const row: { role: 'user' | 'assistant'; parts: Part[]; turn: number; kind?: string; callId?: string } = {
      role: message.role,
      parts: message.parts,
      turn,
    };
    if (message.kind) row.kind = message.kind;
    if (message.callId) row.callId = message.callId;
    await store.messages.append(this.deps.sessionId, row);
  }

  private hold(message: SessionMessage): void {
    this.messages.push(message);
    this.count(message);
    this.watch?.observe(message);
  }
}

export async function loadHistory(store: Store, sessionId: string): Promise<SessionMessage[]> {
  return (await store.messages.list(sessionId)).map(fromRow);
}

function fromRow(row: MessageRow): SessionMessage {
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
  if (row.kind) m.kind = row.kind as MessageKind;
  if (row.callId) m.callId = row.callId;
  return m;
}

export function toolUsesOf(message: SessionMessage): ToolUsePart[] {
  return message.parts.filter((p): p is ToolUsePart => p.type === 'tool_use');
}

export function textOf(message: SessionMessage): string {
  return textOfParts(message.parts);
}
