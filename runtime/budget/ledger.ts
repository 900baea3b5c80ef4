// The run's budget accounting, in memory: what each budget (the mission's, each task's) has settled
// (real usage of stored turns, read back on resume) and holds reserved for calls in flight. A call
// reserves its upper bound against every budget covering it before it is sent, and is refused when
// that could overshoot one; after the call the reservation is replaced by the real figures. Calls are
// reserved one at a time (JavaScript runs one callback at a time), so N parallel sessions can never
// together pass a limit. A call that does not fit while other calls hold reservations on the same
// budget waits for them to settle (they usually cost less than their bound) and is checked again; it
// is refused only when it cannot fit with nothing in flight. Time counts from the run's start, across
// resumes (see restore.ts).

import type { RunEvent } from '../events.js';
import type { Spend } from './estimate.js';
import { BUDGET_KINDS, describeAmount, MISSION_SCOPE, type BudgetKind, type BudgetScope, type Limits } from './limits.js';

/** A warning event once a budget has spent this share of a limit. */
export const WARN_AT = 0.8;

export interface BudgetState {
  limits: Map<BudgetScope, Limits>;
  /** Settled spend per scope (mission and each task), from the stored turns. */
  settled: Map<BudgetScope, Spend>;
  /** Milliseconds the run (mission) and each task had run before this process. */
  elapsedBefore: Map<BudgetScope, number>;
  /** Warnings already given (scope:kind), so a resume does not repeat them. */
  warned: Set<string>;
}

export interface BudgetStop {
  scope: BudgetScope;
  kind: BudgetKind;
  /** Settled plus reserved, when refused. */
  spent: number;
  /** What the refused call would have needed on top. */
  needed: number;
  limit: number;
  message: string;
}

export interface Reservation {
  /** Replaces the reservation by the call's real figures. */
  settle(actual: Spend): void;
  /** The call was not made (or failed before it was billed): frees the reservation. */
  release(): void;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; stop: BudgetStop } | { ok: false; aborted: true };

/** The sessions' view of the ledger: one method, called right before each model call. */
export interface BudgetGate {
  reserve(task: string, agent: string, bound: Spend, signal?: AbortSignal): Promise<ReserveResult>;
}

export class BudgetLedger implements BudgetGate {
  private readonly reserved = new Map<BudgetScope, Spend>();
  /** Calls holding a reservation, per budget (amounts alone could keep a rounding residue). */
  private readonly inFlight = new Map<BudgetScope, number>();
  /** Calls waiting for a reservation to be settled or released. */
  private waiters: (() => void)[] = [];
  private readonly taskStarted = new Map<BudgetScope, number>();
  private stopped: BudgetStop | undefined;
  /** Every budget that has refused a call in this process. */
  private readonly refused = new Set<BudgetScope>();

  constructor(
    private readonly state: BudgetState,
    private readonly emit: (event: RunEvent) => void,
    private readonly clock: () => number = Date.now,
    private readonly startedAt: number = clock(),
  ) {}

  /** Every budget's limits, by scope. */
  get limits(): ReadonlyMap<BudgetScope, Limits> {
    return this.state.limits;
  }

  /** Whether any budget is set (otherwise the gate is never asked). */
  get active(): boolean {
    return this.state.limits.size > 0;
  }

  /** The first budget that refused a call in this process, if any. */
  get stop(): BudgetStop | undefined {
    return this.stopped;
  }

  /** The mission's budget refused a call: no new task can start. */
  get missionStopped(): boolean {
    return this.stopped?.scope === MISSION_SCOPE;
  }

  /** The task's own budget has refused a call: it must not be started again in this process. */
  taskStopped(task: string): boolean {
    return this.refused.has(task);
  }

  /** Marks when a task started running in this process (its duration budget counts from here). */
  taskStarts(task: string): void {
    if (!this.taskStarted.has(task)) this.taskStarted.set(task, this.clock());
  }

  async reserve(taskLabel: string, agent: string, bound: Spend, signal?: AbortSignal): Promise<ReserveResult> {
    const task = taskOfLabel(taskLabel);
    const scopes = [MISSION_SCOPE, task].filter((s) => this.state.limits.has(s));
    for (;;) {
      if (signal?.aborted) return { ok: false, aborted: true };
      let refusal: BudgetStop | undefined;
      for (const scope of scopes) {
        refusal = this.check(scope, bound);
        if (refusal) break;
      }
      if (refusal === undefined) break;
      if (refusal.kind !== 'duration' && (this.inFlight.get(refusal.scope) ?? 0) > 0) {
        await this.nextChange(signal);
        continue;
      }
      this.stopped ??= refusal;
      this.refused.add(refusal.scope);
      this.emit({ type: 'budget.exceeded', task: taskLabel, agent, scope: refusal.scope, kind: refusal.kind, spent: refusal.spent, needed: refusal.needed, limit: refusal.limit, message: refusal.message });
      return { ok: false, stop: refusal };
    }
    for (const scope of scopes) {
      add(this.reserved, scope, bound, 1);
      this.inFlight.set(scope, (this.inFlight.get(scope) ?? 0) + 1);
    }
    let open = true;
    const free = (): boolean => {
      if (!open) return false;
      open = false;
      for (const scope of scopes) {
        const left = (this.inFlight.get(scope) ?? 1) - 1;
        this.inFlight.set(scope, left);
        if (left === 0) this.reserved.delete(scope);
        else add(this.reserved, scope, bound, -1);
      }
      return true;
    };
    return {
      ok: true,
      reservation: {
        release: () => {
          if (free()) this.wake();
        },
        settle: (actual) => {
          if (!free()) return;
          for (const scope of scopes) {
            add(this.state.settled, scope, actual, 1);
            this.warnIfNear(scope, taskLabel);
          }
          this.wake();
        },
      },
    };
  }

  private nextChange(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Spend against each limit of a scope (settled, plus time so far). */
  spent(scope: BudgetScope): Partial<Record<BudgetKind, number>> {
    const s = this.state.settled.get(scope) ?? { tokens: 0, dollars: 0 };
    return { tokens: s.tokens, dollars: s.dollars, duration: this.elapsed(scope) };
  }

  private elapsed(scope: BudgetScope): number {
    const before = this.state.elapsedBefore.get(scope) ?? 0;
    const since = scope === MISSION_SCOPE ? this.startedAt : this.taskStarted.get(scope);
    return before + (since === undefined ? 0 : Math.max(0, this.clock() - since));
  }

  private check(scope: BudgetScope, bound: Spend): BudgetStop | undefined {
    const limits = this.state.limits.get(scope) ?? {};
    const settled = this.state.settled.get(scope) ?? { tokens: 0, dollars: 0 };
    const reserved = this.reserved.get(scope) ?? { tokens: 0, dollars: 0 };
    const who = scope === MISSION_SCOPE ? 'the mission budget' : `the budget of task "${scope}"`;
    for (const kind of BUDGET_KINDS) {
      const limit = limits[kind];
      if (limit === undefined) continue;
      if (kind === 'duration') {
        const spent = this.elapsed(scope);
        if (spent >= limit) return { scope, kind, spent, needed: 0, limit, message: `${who} ran out of time: ${describeAmount(kind, spent)} of ${describeAmount(kind, limit)}` };
        continue;
      }
      const spent = settled[kind] + reserved[kind];
      if (spent + bound[kind] > limit) {
        const inFlight = reserved[kind] > 0 ? ` (${describeAmount(kind, reserved[kind])} of it held by calls in flight)` : '';
        return {
          scope,
          kind,
          spent,
          needed: bound[kind],
          limit,
          message: `${who} cannot afford the next model call: ${describeAmount(kind, spent)} spent${inFlight} of ${describeAmount(kind, limit)}, and the call may cost up to ${describeAmount(kind, bound[kind])}`,
        };
      }
    }
    return undefined;
  }

  private warnIfNear(scope: BudgetScope, task: string): void {
    const limits = this.state.limits.get(scope) ?? {};
    const spent = this.spent(scope);
    for (const kind of BUDGET_KINDS) {
      const limit = limits[kind];
      const key = `${scope}:${kind}`;
      if (limit === undefined || this.state.warned.has(key) || (spent[kind] ?? 0) < WARN_AT * limit) continue;
      this.state.warned.add(key);
      const who = scope === MISSION_SCOPE ? 'the mission budget' : `the budget of task "${scope}"`;
      this.emit({
        type: 'budget.warning',
        task,
        scope,
        kind,
        spent: spent[kind] ?? 0,
        limit,
        message: `${who} is ${Math.floor(((spent[kind] ?? 0) / limit) * 100)}% spent: ${describeAmount(kind, spent[kind] ?? 0)} of ${describeAmount(kind, limit)}`,
      });
    }
  }
}

/** The task a session's label belongs to: iterations (`t[3]`) and earlier attempts (`t#1`) share its budget. */
export function taskOfLabel(label: string): string {
  return label.replace(/[[#].*$/, '');
}

function add(map: Map<BudgetScope, Spend>, scope: BudgetScope, s: Spend, sign: 1 | -1): void {
  const cur = map.get(scope) ?? { tokens: 0, dollars: 0 };
  map.set(scope, { tokens: cur.tokens + sign * s.tokens, dollars: cur.dollars + sign * s.dollars });
}
