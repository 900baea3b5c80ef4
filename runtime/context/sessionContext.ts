// A session's context management, hooked into the model turn at two points: the request is built
// from the session's current view (all messages, or the stored cut's head and the messages it keeps),
// and after each reply the policy decides whether to cut. The trigger is the input the provider
// reported for the request just made, cached tokens included. A cut is stored in the transaction
// that stores the reply, so a resume rebuilds exactly the request the model would have seen.

import type { ContextViewRow, NewContextView, Store } from '../../store/index.js';
import type { EventBus } from '../events.js';
import { ModelCallError, type Message, type ModelResponse, type Usage } from '../providers/types.js';
import { RunInterrupted } from '../agents/sessionTypes.js';
import { costOf } from '../usage.js';
import type { SessionDeps, SessionMessage } from '../agents/sessionTypes.js';
import { keepStart, turnsFrom, viewMessages } from './cut.js';
import { compactedHead, prunedHead } from './head.js';
import type { ContextPolicy } from './policy.js';
import { summarize, summaryText } from './summarize.js';

/** What a reply's check decided: the view to store, and the summary call it cost (if any). */
export interface PendingCut {
  view: NewContextView;
  summary?: { response: ModelResponse; durationMs: number; costUsd: number };
}

/** Every input token of a request: uncached, read from the cache and written to it. */
export function requestInputTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

export class SessionContext {
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

  /**
   * After a reply (not stored yet; `messages` does not hold it): the cut the policy asks for before
   * the next request, if any. A summary, when asked for, is requested here.
   */
  async afterReply(deps: SessionDeps, messages: readonly SessionMessage[], reply: SessionMessage, usage: Usage, turn: number): Promise<PendingCut | undefined> {
    const all = [...messages, reply];
    const from = this.view === undefined ? 0 : this.view.keepFrom - 1;
    const inputTokens = requestInputTokens(usage);
    const { compaction, pruning } = this.policy;
    if (inputTokens > compaction.tokenLimit) {
      const start = keepStart(all, from, compaction.turnRetention);
      if (start !== undefined) {
        const dropped = all.slice(0, start);
        let summary: PendingCut['summary'];
        if (compaction.summarize) summary = await this.summarizeDropped(deps, all.slice(from, start), turn);
        const head = compactedHead(dropped, summary === undefined ? undefined : summaryText(summary.response));
        const cut: PendingCut = { view: { kind: 'compaction', afterSeq: all.length, keepFrom: start + 1, head, inputTokens, dropped: start } };
        if (summary !== undefined) cut.summary = summary;
        return cut;
      }
    }
    if (pruning !== undefined && turnsFrom(all, from) >= pruning.pruneOn) {
      const start = keepStart(all, from, pruning.pruneTo);
      if (start !== undefined) {
        return { view: { kind: 'pruning', afterSeq: all.length, keepFrom: start + 1, head: prunedHead(all.slice(0, start)), inputTokens, dropped: start } };
      }
    }
    return undefined;
  }

  /** Stores the cut (and its summary call's turn) through `tx`; the view applies once `tx` commits. */
  async record(deps: SessionDeps, cut: PendingCut, turn: number, tx: Store, afterSeq: number): Promise<() => void> {
    const { summary } = cut;
    if (summary !== undefined) {
      await tx.turns.record(summaryFacts(deps, summary, turn));
    }
    const row = await tx.contextViews.record(deps.sessionId, { ...cut.view, afterSeq });
    return () => {
      this.view = row;
      announceCut(deps.bus, deps, row, this.policy);
      if (summary !== undefined) deps.bus.emit({ type: 'model.turn', agent: deps.agent, ...summaryFacts(deps, summary, turn) });
    };
  }

  private async summarizeDropped(deps: SessionDeps, dropped: readonly SessionMessage[], turn: number): Promise<PendingCut['summary']> {
    const shown = this.view === undefined ? dropped : [{ role: 'user' as const, parts: this.view.head }, ...dropped];
    const started = performance.now();
    let response: ModelResponse;
    try {
      response = await summarize({ client: deps.client, model: deps.model, signal: deps.signal, trace: { task: deps.task, agent: deps.agent, turn } }, shown);
    } catch (error) {
      if (deps.signal.aborted) throw new RunInterrupted();
      if (!(error instanceof ModelCallError)) throw error;
      // The deterministic head still keeps the task, the tools used and the answers.
      deps.bus.emit({ type: 'warning', task: deps.task, message: `${deps.agent}: the compaction summary failed (${error.message}); compacted without it` });
      return undefined;
    }
    const costUsd = response.replayed ? 0 : costOf(response.usage, deps.model.pricing);
    return { response, durationMs: Math.round(performance.now() - started), costUsd };
  }
}

function summaryFacts(deps: SessionDeps, summary: NonNullable<PendingCut['summary']>, turn: number) {
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

function announceCut(bus: EventBus, deps: SessionDeps, row: ContextViewRow, policy: ContextPolicy): void {
  bus.emit({
    type: 'context.cut',
    task: deps.task,
    agent: deps.agent,
    sessionId: deps.sessionId,
    kind: row.kind,
    keepFrom: row.keepFrom,
    dropped: row.dropped,
    inputTokens: row.inputTokens,
    tokenLimit: policy.compaction.tokenLimit,
  });
}
