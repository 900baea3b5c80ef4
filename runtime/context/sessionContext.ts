// A session's context management, hooked into the model turn before each request: the request is
// built from the session's current view (all messages, or the stored cut's head and the messages it
// keeps), its size is checked against the policy, and a cut the policy asks for is stored (with its
// summary call, when one is asked for) before the request is sent. A resume therefore rebuilds
// exactly the request the model saw: a view made for a request is taken as it is, and the check of a
// request without one reads only stored figures.
//
// The size of the next request comes from what the provider reported for the last one (every input
// token: uncached, cache read, cache write) plus the upper-bound estimate of what was added since
// (runtime/budget/estimate.ts: one token per byte at most). Against `token_limit` the added part is
// scaled by the session's own tokens per estimated token (the last request's report over its
// estimate), since one token per byte would compact at a quarter of the limit; against the model's
// window the unscaled bound is used, so a request the window might not hold is always cut first. A
// candidate cut has no report yet: its whole estimate is scaled the same way.

import type { ContextViewRow, NewContextView, Store } from '../../store/index.js';
import type { EventBus } from '../kernel/events.js';
import { ModelCallError, type Message, type ModelRequest, type Usage } from '../providers/types.js';
import { RunInterrupted } from '../kernel/session.js';
import type { GatedReply } from '../model/modelCall.js';
import { inputUpperBound, messagesUpperBound, toolsUpperBound } from '../budget/estimate.js';
import type { SessionMessage } from '../kernel/session.js';
import type { ContextDeps } from './contextDeps.js';
import { headSources, keepStart, turnsFrom, viewMessages, type View } from './cut.js';
import { fetchStoredRows, indices, isUnread, readStoredParts } from './storedParts.js';
import { commanderState } from './commanderState.js';
import { compactedHead, prunedHead } from './head.js';
import { latestResultsSection, withLatest } from './latestResults.js';
import { requestRoom, type ContextPolicy } from './policy.js';
import { SUMMARY_OUTPUT_TOKENS, summarize, summaryText } from './summarize.js';
import { groupDigits } from '../../core/digits.js';

/** A cut the check asks for, and the summary call it cost (if any). */
export interface PendingCut {
  view: NewContextView;
  /** The summary call's reply; its reservation is settled in the transaction that stores the cut. */
  summary?: GatedReply;
  /** The comparison that asked for the cut, as announced (the figures compared, not two unrelated ones). */
  trigger: CutTrigger;
}

/** `tokens > limit`: the scaled estimate over token_limit, or the strict bound over the room the window leaves. */
export interface CutTrigger {
  against: 'token_limit' | 'window';
  tokens: number;
  limit: number;
}

/** The request to send, or why none can be. */
export type Prepared = { kind: 'ready'; request: ModelRequest } | { kind: 'failed'; reason: string };

/** Every input token of a request: uncached, read from the cache and written to it. */
export function requestInputTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** The last request the provider reported on. */
interface LastRequest {
  /** Messages of the session it was built from. */
  messages: number;
  /** Every input token the provider reported for it. */
  inputTokens: number;
  /** Its upper-bound estimate, and that of its tool definitions alone. */
  estimate: number;
  tools: number;
  /** The view it was built from (undefined: no view). */
  viewSeq: number | undefined;
}

/** The size of a request as checked before it is sent. */
interface Predicted {
  /** The estimate scaled by the session's tokens per estimated token (what the limit is checked against). */
  tokens: number;
  /** The strict upper bound (what the window is checked against before a cut is forced). */
  bound: number;
  /** Derived from a provider's report (false: the bare upper bound of a session's first request). */
  measured: boolean;
}

export class SessionContext {
  private last: LastRequest | undefined;
  private restored = false;

  private constructor(
    readonly policy: ContextPolicy,
    private view: ContextViewRow | undefined,
  ) {}

  /** The session's policy with the view its store holds (none for a new session). */
  static async open(store: Store, sessionId: string, policy: ContextPolicy): Promise<SessionContext> {
    return new SessionContext(policy, await store.contextViews.latest(sessionId));
  }

  /** The messages of the next request. */
  requestMessages(messages: readonly SessionMessage[]): Message[] {
    return viewMessages(messages, this.view);
  }

  /** After a reply: what the provider reported for `request`, built from the first `sent` messages. */
  noteReply(request: ModelRequest, sent: number, usage: Usage): void {
    this.last = { messages: sent, inputTokens: requestInputTokens(usage), estimate: inputUpperBound(request), tools: toolsUpperBound(request.tools), viewSeq: this.view?.seq };
    this.restored = true;
  }

  /**
   * Before a request: builds it (`build` reads the current view), checks its size and the turns it
   * holds, and when the policy asks for a cut stores it first (summary call included) and builds it
   * again. Fails when even the last model turn alone does not fit the model's window.
   */
  async prepare(deps: ContextDeps, messages: readonly SessionMessage[], turn: number, build: () => ModelRequest): Promise<Prepared> {
    // A resumed session's stored parts are parsed as needed (storedParts.ts); the rows of the messages
    // the estimates below may size are fetched first, so they are made as if the whole conversation
    // had been read.
    if (!this.restored) await fetchStoredRows(deps.store, deps.sessionId, messages, this.sizedFrom(messages));
    let request = build();
    if (!this.restored) await this.restore(deps, messages, request);
    // A view made for this very request was checked when it was made (and a resume must send it as is).
    if (this.view !== undefined && this.view.afterSeq === messages.length) return { kind: 'ready', request: await this.readRequest(deps, messages, request, build) };
    const predicted = this.predict(messages, request);
    const room = requestRoom(this.policy);
    let cut = await this.check(deps, messages, turn, request, predicted, room);
    if (cut?.kind !== 'cut' && (cut?.kind === 'failed' || (predicted.measured && predicted.tokens > room))) {
      const reason = cut?.kind === 'failed' ? cut.reason : tooLarge(predicted.tokens, this.policy, 'and its conversation cannot be cut any shorter');
      cut = await this.lastResort(deps, messages, build, predicted, room);
      if (cut === undefined) return { kind: 'failed', reason: `${reason}, not even with its last tool results replaced by stored previews` };
    }
    if (cut?.kind === 'cut') {
      const pending = cut.cut;
      const applied = await deps.store.transaction((tx) => this.record(deps, pending, turn, tx, messages.length));
      applied();
      request = build();
    }
    return { kind: 'ready', request: await this.readRequest(deps, messages, request, build) };
  }

  /**
   * The first message the checks of a resumed session may size: those the current view keeps (a
   * request, the last one rebuilt by restore, a candidate cut), or all of them when there is no view
   * or the last request was sent before it was made.
   */
  private sizedFrom(messages: readonly SessionMessage[]): number {
    if (this.view === undefined) return 0;
    let sent = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === 'assistant') {
        sent = i;
        break;
      }
    }
    return sent >= 0 && sent < this.view.afterSeq ? 0 : this.view.keepFrom - 1;
  }

  /** `request` with every message it sends read from the store (built again if any was not). */
  private async readRequest(deps: ContextDeps, messages: readonly SessionMessage[], request: ModelRequest, build: () => ModelRequest): Promise<ModelRequest> {
    const from = this.view === undefined ? 0 : this.view.keepFrom - 1;
    if ((await readStoredParts(deps.store, deps.sessionId, messages, indices(from, messages.length))) > 0) request = build();
    if (request.messages.some(isUnread)) throw new Error(`a request of session ${deps.sessionId} was built from messages not read from the store`);
    return request;
  }

  /**
   * Reads what a cut's head is made from: the model's replies and the instructions (compactedHead,
   * prunedHead), or every message (a commander's state, a summary, the last resort).
   */
  private async readForHead(deps: ContextDeps, messages: readonly SessionMessage[], all: boolean): Promise<void> {
    const wanted = all ? indices(0, messages.length) : headSources(messages);
    await readStoredParts(deps.store, deps.sessionId, messages, wanted);
  }

  /**
   * When not even the last model turn fits the window: keep no message verbatim, and put the last
   * tool calls in the head with their large results stored and previewed. Undefined when that does
   * not fit either (or the conversation does not end with tool results).
   */
  private async lastResort(
    deps: ContextDeps,
    messages: readonly SessionMessage[],
    build: () => ModelRequest,
    predicted: Predicted,
    room: number,
  ): Promise<{ kind: 'cut'; cut: PendingCut } | undefined> {
    await this.readForHead(deps, messages, true);
    const calls = messages.at(-2)?.parts.filter((p) => p.type === 'tool_use').length ?? 0;
    const section = await latestResultsSection(deps, messages, Math.max(1_000, Math.floor(room / 4 / Math.max(calls, 1))));
    if (section === undefined) return undefined;
    const state = deps.requireToolCall ? commanderState(messages, deps.toolbox.visibleNames()) : undefined;
    const head = withLatest(compactedHead(messages, { state }), section);
    // Built again: the read tools may have joined the request.
    const request = build();
    const fixed = inputUpperBound(request) - messagesUpperBound(request.messages);
    const tokens = Math.ceil((fixed + messagesUpperBound([{ parts: head }])) * this.ratio());
    if (tokens > room) return undefined;
    const n = messages.length;
    return { kind: 'cut', cut: { view: { kind: 'compaction', afterSeq: n, keepFrom: n + 1, head, inputTokens: predicted.tokens, dropped: n }, trigger: { against: 'window', tokens: predicted.tokens, limit: room } } };
  }

  /** The cut the policy asks for before this request, if any. */
  private async check(
    deps: ContextDeps,
    messages: readonly SessionMessage[],
    turn: number,
    request: ModelRequest,
    predicted: Predicted,
    room: number,
  ): Promise<{ kind: 'cut'; cut: PendingCut } | { kind: 'failed'; reason: string } | undefined> {
    const from = this.view === undefined ? 0 : this.view.keepFrom - 1;
    const { compaction, pruning } = this.policy;
    if (predicted.tokens > compaction.tokenLimit || (predicted.measured && predicted.bound > room)) {
      const trigger: CutTrigger =
        predicted.tokens > compaction.tokenLimit ? { against: 'token_limit', tokens: predicted.tokens, limit: compaction.tokenLimit } : { against: 'window', tokens: predicted.bound, limit: room };
      const compacted = await this.compact(deps, messages, from, turn, request, predicted, room, trigger);
      if (compacted !== undefined) return compacted;
    }
    if (pruning !== undefined && turnsFrom(messages, from) >= pruning.pruneOn) {
      const start = keepStart(messages, from, pruning.pruneTo);
      if (start !== undefined) {
        await this.readForHead(deps, messages, false);
        const head = prunedHead(messages.slice(0, start));
        // The pruned head can outweigh the turns it drops (short turns, a long notice): a pruned
        // request that would pass the limit is compacted instead.
        const pruned = this.viewTokens(messages, request, { keepFrom: start + 1, head });
        if (pruned > compaction.tokenLimit) {
          const compacted = await this.compact(deps, messages, from, turn, request, predicted, room, { against: 'token_limit', tokens: pruned, limit: compaction.tokenLimit });
          if (compacted !== undefined) return compacted;
        }
        const trigger: CutTrigger = { against: 'token_limit', tokens: predicted.tokens, limit: compaction.tokenLimit };
        return { kind: 'cut', cut: { view: { kind: 'pruning', afterSeq: messages.length, keepFrom: start + 1, head, inputTokens: predicted.tokens, dropped: start }, trigger } };
      }
    }
    return undefined;
  }

  /** A compaction cut where the policy allows one (chooseCompaction), with its summary when asked; undefined when no model turn can be dropped. */
  private async compact(
    deps: ContextDeps,
    messages: readonly SessionMessage[],
    from: number,
    turn: number,
    request: ModelRequest,
    predicted: Predicted,
    room: number,
    trigger: CutTrigger,
  ): Promise<{ kind: 'cut'; cut: PendingCut } | { kind: 'failed'; reason: string } | undefined> {
    const { compaction } = this.policy;
    await this.readForHead(deps, messages, deps.requireToolCall || compaction.summarize);
    const chosen = this.chooseCompaction(deps, messages, from, request, room);
    if (chosen === undefined || chosen.kind === 'failed') return chosen;
    const start = chosen.start;
    let summary: PendingCut['summary'];
    if (compaction.summarize) summary = await this.summarizeDropped(deps, messages.slice(from, start), turn);
    const head = compactedHead(messages.slice(0, start), { summary: summary === undefined ? undefined : summaryText(summary.response), state: chosen.state });
    const cut: PendingCut = { view: { kind: 'compaction', afterSeq: messages.length, keepFrom: start + 1, head, inputTokens: predicted.tokens, dropped: start }, trigger };
    if (summary !== undefined) cut.summary = summary;
    return { kind: 'cut', cut };
  }

  /** The reported tokens a request sending `view` of `messages` is expected to take (its upper bound, scaled by the last report). */
  private viewTokens(messages: readonly SessionMessage[], request: ModelRequest, view: View): number {
    const fixed = inputUpperBound(request) - messagesUpperBound(request.messages);
    return Math.ceil((fixed + messagesUpperBound(viewMessages(messages, view))) * this.ratio());
  }

  /**
   * Where to compact: the last `turn_retention` model turns kept, or fewer when those alone would
   * pass the limit, down to the last one (whose tool results must follow it). Undefined when no
   * model turn can be dropped.
   */
  private chooseCompaction(
    deps: ContextDeps,
    messages: readonly SessionMessage[],
    from: number,
    request: ModelRequest,
    room: number,
  ): { kind: 'keep'; start: number; state: string | undefined } | { kind: 'failed'; reason: string } | undefined {
    const { compaction } = this.policy;
    const reserve = compaction.summarize ? SUMMARY_OUTPUT_TOKENS : 0;
    const state = deps.requireToolCall ? commanderState : undefined;
    let smallest: { kind: 'keep'; start: number; state: string | undefined; tokens: number } | undefined;
    for (let turns = compaction.turnRetention; turns >= 1; turns--) {
      const start = keepStart(messages, from, turns);
      // A cut drops at least one model turn (dropping only the task would save nothing).
      if (start === undefined || !messages.slice(from, start).some((m) => m.role === 'assistant')) continue;
      const dropped = messages.slice(0, start);
      const stateText = state?.(dropped, deps.toolbox.visibleNames());
      const view: View = { keepFrom: start + 1, head: compactedHead(dropped, { state: stateText }) };
      const tokens = this.viewTokens(messages, request, view) + reserve;
      smallest = { kind: 'keep', start, state: stateText, tokens };
      if (tokens <= compaction.tokenLimit) return smallest;
    }
    if (smallest === undefined || smallest.tokens <= room) return smallest;
    return { kind: 'failed', reason: tooLarge(smallest.tokens, this.policy, 'even with only the last model turn kept') };
  }

  /** The request's size: the last report plus the estimate of what was added since, or a scaled estimate. */
  private predict(messages: readonly SessionMessage[], request: ModelRequest): Predicted {
    const last = this.last;
    if (last !== undefined && last.viewSeq === this.view?.seq && last.messages <= messages.length) {
      const added = messagesUpperBound(messages.slice(last.messages)) + Math.max(0, toolsUpperBound(request.tools) - last.tools);
      return { tokens: last.inputTokens + Math.ceil(added * this.ratio()), bound: last.inputTokens + added, measured: true };
    }
    const bound = inputUpperBound(request);
    return { tokens: Math.ceil(bound * this.ratio()), bound, measured: last !== undefined };
  }

  /** Reported tokens per estimated token of the last request (at most 1; 1 when there is none). */
  private ratio(): number {
    const last = this.last;
    return last === undefined || last.estimate <= 0 ? 1 : Math.min(1, last.inputTokens / last.estimate);
  }

  /**
   * After a resume: the last request's figures from the store (the provider's report of the session's
   * last reply) and its estimate rebuilt from the stored messages, so the check decides as before.
   */
  private async restore(deps: ContextDeps, messages: readonly SessionMessage[], request: ModelRequest): Promise<void> {
    this.restored = true;
    let sent = -1;
    let replies = 0;
    for (let i = 0; i < messages.length; i++) {
      if (messages[i]?.role !== 'assistant') continue;
      sent = i;
      replies += 1;
    }
    if (sent < 0) return;
    const inputTokens = await deps.store.turns.lastInputTokens(deps.sessionId, replies);
    if (inputTokens === undefined) return;
    // The view in force for that request: the current one when it was made before it.
    const sameView = this.view === undefined || sent >= this.view.afterSeq;
    const rebuilt = { system: request.system, tools: request.tools, messages: viewMessages(messages.slice(0, sent), sameView ? this.view : undefined) };
    this.last = { messages: sent, inputTokens, estimate: inputUpperBound(rebuilt), tools: toolsUpperBound(request.tools), viewSeq: sameView ? this.view?.seq : -1 };
  }

  /** Stores the cut (and its summary call's turn) through `tx`; the view applies once `tx` commits. */
  private async record(deps: ContextDeps, cut: PendingCut, turn: number, tx: Store, afterSeq: number): Promise<() => void> {
    const { summary } = cut;
    if (summary !== undefined) {
      await tx.turns.record(summaryFacts(deps, summary, turn));
      await summary.settleIn(tx);
    }
    const row = await tx.contextViews.record(deps.sessionId, { ...cut.view, afterSeq });
    return () => {
      this.view = row;
      announceCut(deps.bus, deps, row, cut.trigger);
      if (summary !== undefined) {
        summary.settled();
        deps.bus.emit({ type: 'model.turn', agent: deps.agent, ...summaryFacts(deps, summary, turn) });
      }
    };
  }

  private async summarizeDropped(deps: ContextDeps, dropped: readonly SessionMessage[], turn: number): Promise<PendingCut['summary']> {
    const shown = this.view === undefined ? dropped : [{ role: 'user' as const, parts: this.view.head }, ...dropped];
    try {
      return await summarize({ client: deps.client, model: deps.model, signal: deps.signal, trace: { task: deps.task, agent: deps.agent, turn } }, shown);
    } catch (error) {
      // A budget that cannot afford the summary stops the run before it is sent (BudgetStopped).
      if (error instanceof RunInterrupted) throw error;
      if (deps.signal.aborted) throw new RunInterrupted();
      if (!(error instanceof ModelCallError)) throw error;
      // The deterministic head still keeps the task, the tools used and the answers.
      deps.bus.emit({ type: 'warning', task: deps.task, message: `${deps.agent}: the compaction summary failed (${error.message}); compacted without it` });
      return undefined;
    }
  }
}

function tooLarge(tokens: number, policy: ContextPolicy, why: string): string {
  const n = groupDigits;
  return `the next model request would hold about ${n(tokens)} input tokens, more than the ${n(requestRoom(policy))} its model's context window of ${n(policy.window)} leaves beside the reply, ${why}`;
}

function summaryFacts(deps: ContextDeps, summary: NonNullable<PendingCut['summary']>, turn: number) {
  return {
    runId: deps.runId,
    task: deps.task,
    sessionId: deps.sessionId,
    turn,
    model: deps.model.apiModel,
    usage: summary.response.usage,
    costUsd: summary.costUsd,
    durationMs: summary.durationMs,
    stopReason: summary.response.stopReason,
  };
}

function announceCut(bus: EventBus, deps: ContextDeps, row: ContextViewRow, trigger: CutTrigger): void {
  bus.emit({
    type: 'context.cut',
    task: deps.task,
    agent: deps.agent,
    sessionId: deps.sessionId,
    kind: row.kind,
    keepFrom: row.keepFrom,
    dropped: row.dropped,
    inputTokens: trigger.tokens,
    tokenLimit: trigger.limit,
    against: trigger.against,
  });
}
