// The run's desk for its operator: opens a request once per call (stored with the ledger's pending
// row in one commit), asks on a terminal when there is one (one prompt at a time) and records the
// reply as the decision; otherwise the request waits, and the desk remembers which task parked so
// the scheduler can end the run as `waiting` once nothing else can proceed.

import { userInfo } from 'node:os';
import type { NewOperatorRequest, OperatorRequestRow, Store } from '../../store/index.js';
import type { EventBus } from '../kernel/events.js';
import type { OperatorPrompt, PromptRequest } from './types.js';

export class OperatorDesk {
  private readonly parked = new Set<string>();
  private asking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly prompt?: OperatorPrompt,
    readonly who: string = operatorName(),
  ) {}

  /** Some task (or item) of this process parked on a request. */
  get waiting(): boolean {
    return this.parked.size > 0;
  }

  /** Whether `task` (or one of its items, `task[i]`) parked. */
  hasParked(task: string): boolean {
    for (const label of this.parked) if (label === task || label.startsWith(`${task}[`)) return true;
    return false;
  }

  /**
   * The decided request of this call: already decided, or decided now at the terminal. 'parked' when
   * it waits for `approve`/`deny`/`answer`. `opening` writes what belongs with the request (the
   * ledger's pending_approval row) in the same commit.
   */
  async resolve(req: NewOperatorRequest, details: Pick<PromptRequest, 'via' | 'question' | 'input'>, opening?: (tx: Store) => Promise<void>): Promise<OperatorRequestRow | 'parked'> {
    const known = await this.store.operatorRequests.forCall(req.sessionId, req.callId, req.kind, req.seq ?? 0);
    if (known && known.status !== 'pending') return known;
    const row =
      known ??
      (await this.store.transaction(async (tx) => {
        const opened = await tx.operatorRequests.open(req);
        await opening?.(tx);
        return opened;
      }));
    if (!known) this.bus.emit({ type: 'operator.requested', task: req.task, agent: req.agent, requestId: row.id, kind: row.kind, tool: row.toolRef, callId: row.callId });
    if (this.prompt) {
      const prompt = this.prompt;
      const ask = this.asking.then(() => prompt.ask({ id: row.id, kind: row.kind, task: row.task, agent: row.agent, tool: row.toolRef, ...details }));
      this.asking = ask.catch(() => undefined);
      const reply = await ask;
      if (reply) {
        const decision = { status: reply.status, by: this.who, ...('reason' in reply && reply.reason ? { reason: reply.reason } : {}), ...('answer' in reply ? { answer: reply.answer } : {}) };
        await this.store.operatorRequests.decide(row.runId, row.id, decision);
        const decided = (await this.store.operatorRequests.get(row.runId, row.id))!;
        this.bus.emit({ type: 'operator.decided', task: row.task, requestId: row.id, kind: row.kind, status: decided.status, by: decided.decidedBy ?? this.who, ...(decided.reason ? { reason: decided.reason } : {}) });
        if (decided.status !== 'pending') return decided;
      }
    }
    this.parked.add(req.task);
    return 'parked';
  }
}

/** Who decides: the OS user running the command (SQUADRON_OPERATOR overrides it, e.g. in CI). */
export function operatorName(env: NodeJS.ProcessEnv = process.env): string {
  const named = env['SQUADRON_OPERATOR']?.trim();
  if (named) return named;
  try {
    return userInfo().username;
  } catch {
    return env['USER'] ?? env['USERNAME'] ?? 'unknown';
  }
}
