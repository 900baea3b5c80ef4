// Executes the tool calls of one assistant turn against the write-ahead ledger. Calls run
// concurrently and their results keep the order of the calls. A call whose result is in the ledger is
// replayed, never re-run; one that started but never finished is re-run only when its tool says that
// is safe; a name the session does not hold is refused and nothing runs.
//
// Writes are grouped into few commits (docs/concepts/persistence.md): the reply itself (with its usage
// and `model.turn` event, handed over as the step's opening) and the `started` entries of the turn
// with their events in one commit before any tool runs, the results with the tool_results message in
// one commit after the last of them. The reply never waits for anything outside the process: it is
// committed before a tool runs or the operator is asked. A result whose loss
// would cost more than a re-run (a call that is not safe to repeat, or one that resumes its own work)
// is committed as soon as it is known while other calls still run. The bookkeeping calls that run
// last (submit_output, task_complete) are safe to repeat and touch nothing outside: their starts go
// in the last commit with their results (and so does the reply, when they are its only calls).

import { durableStep, type StepTx } from '../kernel/durableStep.js';
import type { EventBus } from '../kernel/events.js';
import type { Store } from '../../store/index.js';
import type { ToolResultPart, ToolUsePart } from '../providers/types.js';
import { isResultReader, offloadResult, revealResultTools, type ResultScope } from '../results/index.js';
import type { ToolResult } from '../tools/types.js';
import { RunInterrupted, RunParked, type SessionDeps } from './sessionTypes.js';
import { operatorPlan } from '../operator/gate.js';
import { HUMAN_ASK } from '../operator/question.js';
import type { SessionTool } from '../tools/toolbox.js';
import { malformedReason } from '../providers/toolInput.js';

export const INTERRUPTED_MESSAGE =
  'This tool call was interrupted before it finished (the process stopped), so its effect is unknown. ' +
  'Check the current state before deciding whether to call it again.';

/** What the caller stores around the calls: in the first commit, and in the last one with the results. */
export interface ToolStep {
  /**
   * Writes that belong before any tool runs (the reply, its usage and `model.turn` event), in the
   * first commit; `committed` runs once that commit is made.
   */
  opening?: { write: Write; committed?: () => void } | undefined;
  /** Stores the results (the tool_results message), in the same commit as the last of them. */
  persist?: (results: ToolResultPart[], tx: StepTx) => Promise<void>;
  /** Calls the runtime answers itself instead of running them (a runaway guard's correction), by call id. */
  answers?: ReadonlyMap<string, ToolResult> | undefined;
}

/** A write of the step, made through the step's transaction (its store and its events). */
type Write = (tx: StepTx) => void | Promise<void>;

/** How one call is answered, decided from the ledger and the toolbox before anything runs. */
type Plan =
  | { kind: 'answered'; result: ToolResult; write?: Write }
  | { kind: 'run'; tool: SessionTool; write: Write }
  /** Waits for the operator (approval, question): not run; the session stops after the turn's other calls. */
  | { kind: 'parked' };

export async function executeToolCalls(deps: SessionDeps, calls: readonly ToolUsePart[], step: ToolStep = {}): Promise<ToolResultPart[]> {
  const results = new Array<ToolResultPart>(calls.length);
  const writes = new StepWrites(deps.store, deps.bus);
  if (step.opening) writes.add(step.opening.write, step.opening.committed);
  // Before the operator is asked (a request stored, maybe a wait), what is queued is committed.
  const flush = () => writes.commit();
  const finish = (i: number, result: ToolResult): void => {
    const call = calls[i]!;
    const part: ToolResultPart = { type: 'tool_result', toolUseId: call.id, content: result.content, isError: result.isError };
    results[i] = part;
    deps.onToolResult?.(call, part);
  };
  const last = (call: ToolUsePart) => deps.toolbox.resolve(call.name)?.runsLast === true;
  try {
    // The calls that run together: every write-ahead start is committed before the first of them runs.
    const wave: { i: number; plan: Plan }[] = [];
    for (const [i, call] of calls.entries()) if (!last(call)) wave.push({ i, plan: await planCall(deps, call, step.answers, flush) });
    for (const { plan } of wave) if (plan.kind !== 'parked' && plan.write) writes.add(plan.write);
    const running = wave.filter((w): w is { i: number; plan: Extract<Plan, { kind: 'run' }> } => w.plan.kind === 'run');
    if (running.length > 0) await writes.commit();
    for (const { i, plan } of wave) if (plan.kind === 'answered') finish(i, plan.result);
    let outstanding = running.length;
    // Every call of the wave is waited for, even when one fails: none is left running unrecorded.
    const settled = await Promise.allSettled(
      running.map(async ({ i, plan }) => {
        const call = calls[i]!;
        const done = await runTool(deps, call, plan.tool);
        outstanding -= 1;
        writes.add((tx) => recordResult(deps, tx, call, plan.tool.ref, done));
        // Safe to repeat: a later commit will do. Otherwise durable now, with all finished before it.
        if (outstanding > 0 && plan.tool.onInterrupted !== 'rerun') await writes.commit();
        finish(i, done.result);
      }),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    // A call waiting for the operator: what ran is recorded, the turn's results are not (resume plans it again).
    if (wave.some((w) => w.plan.kind === 'parked')) throw new RunParked();
    // Bookkeeping tools (submit_output, task_complete) see the effects of the turn's other calls.
    for (const [i, call] of calls.entries()) {
      if (!last(call)) continue;
      const plan = await planCall(deps, call, step.answers, flush);
      if (plan.kind === 'parked') throw new RunParked();
      if (plan.write) writes.add(plan.write);
      if (plan.kind === 'answered') {
        finish(i, plan.result);
        continue;
      }
      // Bookkeeping that acts on nothing outside the process and is safe to repeat needs no commit of
      // its own before it runs: its start goes in with its result (a kill before that commit leaves
      // no entry, and resume runs it, as it would re-run a `started` one).
      if (plan.tool.onInterrupted !== 'rerun') await writes.commit();
      const done = await runTool(deps, call, plan.tool);
      writes.add((tx) => recordResult(deps, tx, call, plan.tool.ref, done));
      finish(i, done.result);
    }
    const persist = step.persist;
    await writes.commit(persist && ((tx) => persist(results, tx)));
  } catch (error) {
    // Results already known stay durable when the turn is cut short (a stopping run, a sibling's failure).
    await writes.commitQuietly();
    throw error;
  }
  return results;
}

/**
 * Store writes of one step, and the events they emit (through the step's transaction, see
 * durableStep.ts), queued until the step must be durable, then committed at once. Commits are taken
 * in the order they are asked for (the store queues a transaction behind the one still open).
 */
class StepWrites {
  private queued: Write[] = [];
  /** Run once the queued writes are committed. */
  private onCommit: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
  ) {}

  add(write: Write, committed?: () => void): void {
    this.queued.push(write);
    if (committed) this.onCommit.push(committed);
  }

  async commit(last?: Write): Promise<void> {
    const writes = this.queued;
    const committed = this.onCommit;
    this.queued = [];
    this.onCommit = [];
    if (writes.length === 0 && !last) return;
    await durableStep(this.store, this.bus, async (tx) => {
      for (const write of writes) await write(tx);
      await last?.(tx);
    });
    for (const hook of committed) hook();
  }

  async commitQuietly(): Promise<void> {
    try {
      await this.commit();
    } catch {
      // The error already on its way out says more than this one.
    }
  }
}

async function planCall(deps: SessionDeps, call: ToolUsePart, answers: ToolStep['answers'], flush: () => Promise<void>): Promise<Plan> {
  const { store, sessionId } = deps;
  // The ledger comes first: a call that ran before a restart is answered with what really happened,
  // even if its tool is no longer available (a server that fails to start now, a changed config).
  const stored = await store.ledger.get(sessionId, call.id);
  if (stored?.status === 'completed' && stored.result) {
    const result = stored.result;
    return { kind: 'answered', result, write: (tx) => emitFinished(deps, tx, call, stored.toolRef, result.isError, 0, true) };
  }
  // Decided again from the same conversation on resume, so never in the ledger.
  const answer = answers?.get(call.id);
  if (answer) return { kind: 'answered', result: answer };
  const resuming = stored?.status === 'started';
  const tool = deps.toolbox.resolve(call.name);
  if (resuming && (!tool || tool.onInterrupted === 'report')) {
    const result = refusal(INTERRUPTED_MESSAGE);
    const write = async (tx: StepTx): Promise<void> => {
      await tx.store.ledger.recordCompleted(sessionId, call.id, result);
      emitFinished(deps, tx, call, stored.toolRef, true, 0, true);
    };
    return { kind: 'answered', result, write };
  }
  if (!tool) return { kind: 'answered', result: refusal(deps.toolbox.describeUnknown(call.name)) };
  if (call.malformedInput !== undefined) {
    const text = `This ${call.name} call was refused. ${malformedReason(call.malformedInput)} Received: ${truncate(call.malformedInput, 300)}`;
    return { kind: 'answered', result: refusal(text) };
  }
  // The operator's request refers to the reply, and its answer may be long in coming: the reply is
  // durable first.
  if (tool.approval !== undefined || tool.ref === HUMAN_ASK) await flush();
  const operator = await operatorPlan(deps, call, tool, stored);
  if (operator.kind === 'parked') return operator;
  if (operator.kind === 'answered') {
    const result = operator.result;
    const write = async (tx: StepTx): Promise<void> => {
      await tx.store.ledger.recordStarted({ sessionId, callId: call.id, toolRef: tool.ref, apiName: call.name, input: call.input, idempotent: tool.onInterrupted !== 'report' });
      await tx.store.ledger.recordCompleted(sessionId, call.id, result);
      emitFinished(deps, tx, call, tool.ref, result.isError, 0, false);
    };
    return { kind: 'answered', result, write };
  }
  const write = async (tx: StepTx): Promise<void> => {
    // An approved call waiting as pending_approval becomes started here, in the commit before it runs.
    if (!stored || stored.status === 'pending_approval') {
      await tx.store.ledger.recordStarted({
        sessionId,
        callId: call.id,
        toolRef: tool.ref,
        apiName: call.name,
        input: call.input,
        idempotent: tool.onInterrupted !== 'report',
      });
    }
    tx.emit({ type: 'tool.started', task: deps.task, agent: deps.agent, sessionId, callId: call.id, tool: tool.ref });
  };
  return { kind: 'run', tool, write };
}

interface Done {
  result: ToolResult;
  durationMs: number;
}

async function runTool(deps: SessionDeps, call: ToolUsePart, tool: SessionTool): Promise<Done> {
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
  // The interception point: the ledger, and so the model and any resume, see what this returns.
  const scope = resultScope(deps);
  if (!isResultReader(tool.ref)) result = await offloadResult(scope, result);
  await revealResultTools(deps.toolbox, scope);
  return { result, durationMs: performance.now() - started };
}

function resultScope(deps: SessionDeps): ResultScope {
  return { store: deps.store, runId: deps.runId, sessionId: deps.sessionId, maxTokens: deps.resultMaxTokens };
}

async function recordResult(deps: SessionDeps, tx: StepTx, call: ToolUsePart, toolRef: string, done: Done): Promise<void> {
  await tx.store.ledger.recordCompleted(deps.sessionId, call.id, done.result);
  emitFinished(deps, tx, call, toolRef, done.result.isError, done.durationMs, false);
}

function emitFinished(deps: SessionDeps, tx: StepTx, call: ToolUsePart, toolRef: string, isError: boolean, durationMs: number, replayed: boolean): void {
  tx.emit({
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
