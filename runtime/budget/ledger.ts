// The run's budget accounting: what each budget (the mission's, each task's) has settled (real usage
// of stored turns) and holds reserved for calls in flight, kept where its BudgetTotals port keeps
// them (the database, so every runner of a run shares them; see totals.ts). A call reserves its upper
// bound against every budget covering it before it is sent, and is refused when that could overshoot
// one; the check and the reservation are one atomic step of the port, so parallel sessions — in this
// process or on other runners — can never together pass a limit. After the call its turn is stored
// and the reservation dropped in one transaction. A call that does not fit while other calls hold
// reservations on the same budget waits for them to settle (they usually cost less than their bound)
// and is checked again; it is refused only when it cannot fit with nothing in flight. Time is this
// process's clock: the mission's from the run's start across resumes, a task's from its start here.

import type { Store } from '../../store/index.js';
import { taskOfLabel } from '../../core/sessionLabels.js';
import type { RunEvent } from '../kernel/events.js';
import type { Spend } from './estimate.js';
import { memoryTotals, type BudgetHolder, type BudgetTotals, type ScopeTotals } from './totals.js';
import { BUDGET_KINDS, describeAmount, MISSION_SCOPE, type BudgetKind, type BudgetScope, type Limits } from './limits.js';

/** A warning event once a budget has spent this share of a limit. */
export const WARN_AT = 0.8;

export interface BudgetState {
  limits: Map<BudgetScope, Limits>;
  /** Settled spend per scope (mission and each task) as last seen (the port holds the truth). */
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
  /** In the transaction that stores the call's turn (before it commits): the turn is now the spend. */
  settleIn(tx: Store): Promise<void>;
  /** After that transaction committed: the call's real figures (warnings, waiting calls). */
  settle(actual: Spend): void;
  /** The call was not made (or failed before it was billed): frees the reservation. */
  release(): Promise<void>;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; stop: BudgetStop } | { ok: false; aborted: true };

/** The sessions' view of the ledger: one method, called right before each model call. */
export interface BudgetGate {
  reserve(task: string, agent: string, bound: Spend, signal?: AbortSignal): Promise<ReserveResult>;
}

/** How often a call waiting for room checks again for what other runners settled. */
export const RECHECK_MS = 250;

export interface LedgerOptions {
  clock?: () => number;
  /** When the mission's time started counting in this process (default: now). */
  startedAt?: number;
  /** Where the totals live; default: in this process (state.settled). */
  totals?: BudgetTotals;
  /** Who holds a reservation of a task with no unit of work registered (the run's lease owner). */
  defaultHolder?: () => BudgetHolder | undefined;
}

export class BudgetLedger implements BudgetGate {
  /** Calls waiting for a reservation to be settled or released. */
  private waiters: (() => void)[] = [];
  private readonly taskStarted = new Map<BudgetScope, number>();
  private stopped: BudgetStop | undefined;
  /** Every budget that has refused a call for this process. */
  private readonly refused = new Set<BudgetScope>();
  /** The unit of work each task (or session label) runs under here (its reservations are that unit's). */
  private readonly holders = new Map<string, BudgetHolder>();
  private readonly clock: () => number;
  private readonly startedAt: number;
  private readonly totals: BudgetTotals;

  constructor(
    private readonly state: BudgetState,
    private readonly emit: (event: RunEvent) => void,
    private readonly opts: LedgerOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.startedAt = opts.startedAt ?? this.clock();
    this.totals = opts.totals ?? memoryTotals(new Map(state.settled));
  }

  /** Every budget's limits, by scope. */
  get limits(): ReadonlyMap<BudgetScope, Limits> {
    return this.state.limits;
  }

  /** Whether any budget is set (otherwise the gate is never asked). */
  get active(): boolean {
    return this.state.limits.size > 0;
  }

  /** The first budget that refused a call, here or (noted) on another runner. */
  get stop(): BudgetStop | undefined {
    return this.stopped;
  }

  /** The mission's budget refused a call: no new task can start. */
  get missionStopped(): boolean {
    return this.refused.has(MISSION_SCOPE);
  }

  /** The task's own budget has refused a call: it must not be started again before a resume. */
  taskStopped(task: string): boolean {
    return this.refused.has(task);
  }

  /** The budget stop that ended task `task` here, if one did: its own budget's, or the mission's. */
  stopOf(task: string): BudgetStop | undefined {
    return this.refusedBy.get(task);
  }
  private readonly refusedBy = new Map<string, BudgetStop>();

  /** A budget refused a call on another runner (the task's unit came back stopped): as if refused here. */
  noteStop(stop: BudgetStop): void {
    this.stopped ??= stop;
    this.refused.add(stop.scope);
  }

  /** Marks when a task started running in this process (its duration budget counts from here). */
  taskStarts(task: string): void {
    if (!this.taskStarted.has(task)) this.taskStarted.set(task, this.clock());
  }

  /**
   * The task (or one session label of it, such as an item `t[3]`) runs under unit of work `holder`
   * here until `unhold`: its calls' reservations are that unit's.
   */
  hold(label: string, holder: BudgetHolder): void {
    this.holders.set(label, holder);
    this.refusedBy.delete(taskOfLabel(label));
  }

  unhold(label: string): void {
    this.holders.delete(label);
  }

  /** Reads every budget's settled spend from the port (for the final report). */
  async refresh(): Promise<void> {
    if (!this.active) return;
    for (const [scope, t] of await this.totals.totals([...this.state.limits.keys()])) this.state.settled.set(scope, t.settled);
  }

  async reserve(taskLabel: string, agent: string, bound: Spend, signal?: AbortSignal): Promise<ReserveResult> {
    const task = taskOfLabel(taskLabel);
    const scopes = [MISSION_SCOPE, task].filter((s) => this.state.limits.has(s));
    let id: string;
    for (;;) {
      if (signal?.aborted) return { ok: false, aborted: true };
      let refusal: (BudgetStop & { inFlight: number }) | undefined;
      for (const scope of scopes) {
        const late = this.lateness(scope);
        if (late) {
          refusal = { ...late, inFlight: 0 };
          break;
        }
      }
      if (refusal === undefined) {
        const result = await this.totals.reserve(scopes, bound, this.holders.get(taskLabel) ?? this.holders.get(task) ?? this.opts.defaultHolder?.(), (totals) => {
          for (const [scope, t] of totals) this.seen(scope, t.settled);
          for (const scope of scopes) {
            const r = this.check(scope, bound, totals.get(scope));
            if (r) return r;
          }
          return undefined;
        });
        if (result.ok) {
          id = result.id;
          break;
        }
        refusal = result.refusal;
      }
      if (refusal.kind !== 'duration' && refusal.inFlight > 0) {
        await this.nextChange(signal);
        continue;
      }
      const { inFlight: _, ...stop } = refusal;
      this.stopped ??= stop;
      this.refused.add(stop.scope);
      this.refusedBy.set(task, stop);
      this.emit({ type: 'budget.exceeded', task: taskLabel, agent, scope: stop.scope, kind: stop.kind, spent: stop.spent, needed: stop.needed, limit: stop.limit, message: stop.message });
      return { ok: false, stop };
    }
    let open = true;
    return {
      ok: true,
      reservation: {
        settleIn: (tx) => (open ? this.totals.settleIn(id, tx) : Promise.resolve()),
        settle: (actual) => {
          if (!open) return;
          open = false;
          this.totals.settled(id, actual);
          for (const scope of scopes) {
            const cur = this.state.settled.get(scope) ?? { tokens: 0, dollars: 0 };
            this.state.settled.set(scope, { tokens: cur.tokens + actual.tokens, dollars: cur.dollars + actual.dollars });
            this.warnIfNear(scope, taskLabel);
          }
          this.wake();
        },
        release: async () => {
          if (!open) return;
          open = false;
          try {
            await this.totals.release(id);
          } finally {
            this.wake();
          }
        },
      },
    };
  }

  /** Keeps the highest settled figure seen for a scope (the port's is the truth, and only grows). */
  private seen(scope: BudgetScope, settled: Spend): void {
    const cur = this.state.settled.get(scope);
    if (cur === undefined || settled.dollars > cur.dollars || settled.tokens > cur.tokens) {
      this.state.settled.set(scope, { tokens: Math.max(settled.tokens, cur?.tokens ?? 0), dollars: Math.max(settled.dollars, cur?.dollars ?? 0) });
    }
  }

  /** Waits for a call here to settle or release, or a while for other runners' calls. */
  private nextChange(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      // Every way out drops both the waiter and the abort listener: a task that waits many times
      // on one signal must not pile listeners on it.
      const done = (): void => {
        clearTimeout(timer);
        const at = this.waiters.indexOf(done);
        if (at >= 0) this.waiters.splice(at, 1);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, RECHECK_MS);
      this.waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Spend against each limit of a scope (settled as last seen, plus time so far). */
  spent(scope: BudgetScope): Partial<Record<BudgetKind, number>> {
    const s = this.state.settled.get(scope) ?? { tokens: 0, dollars: 0 };
    return { tokens: s.tokens, dollars: s.dollars, duration: this.elapsed(scope) };
  }

  private elapsed(scope: BudgetScope): number {
    const before = this.state.elapsedBefore.get(scope) ?? 0;
    const since = scope === MISSION_SCOPE ? this.startedAt : this.taskStarted.get(scope);
    return before + (since === undefined ? 0 : Math.max(0, this.clock() - since));
  }

  private who(scope: BudgetScope): string {
    return scope === MISSION_SCOPE ? 'the mission budget' : `the budget of task "${scope}"`;
  }

  /** The scope's time budget has run out. */
  private lateness(scope: BudgetScope): BudgetStop | undefined {
    const limit = this.state.limits.get(scope)?.duration;
    if (limit === undefined) return undefined;
    const spent = this.elapsed(scope);
    if (spent < limit) return undefined;
    return { scope, kind: 'duration', spent, needed: 0, limit, message: `${this.who(scope)} ran out of time: ${describeAmount('duration', spent)} of ${describeAmount('duration', limit)}` };
  }

  private check(scope: BudgetScope, bound: Spend, totals: ScopeTotals | undefined): (BudgetStop & { inFlight: number }) | undefined {
    const limits = this.state.limits.get(scope) ?? {};
    const settled = totals?.settled ?? { tokens: 0, dollars: 0 };
    const reserved = totals?.reserved ?? { tokens: 0, dollars: 0 };
    for (const kind of BUDGET_KINDS) {
      const limit = limits[kind];
      if (limit === undefined || kind === 'duration') continue;
      const spent = settled[kind] + reserved[kind];
      if (spent + bound[kind] > limit) {
        const inFlight = reserved[kind] > 0 ? ` (${describeAmount(kind, reserved[kind])} of it held by calls in flight)` : '';
        return {
          scope,
          kind,
          spent,
          needed: bound[kind],
          limit,
          inFlight: totals?.inFlight ?? 0,
          message: `${this.who(scope)} cannot afford the next model call: ${describeAmount(kind, spent)} spent${inFlight} of ${describeAmount(kind, limit)}, and the call may cost up to ${describeAmount(kind, bound[kind])}`,
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
      this.emit({
        type: 'budget.warning',
        task,
        scope,
        kind,
        spent: spent[kind] ?? 0,
        limit,
        message: `${this.who(scope)} is ${Math.floor(((spent[kind] ?? 0) / limit) * 100)}% spent: ${describeAmount(kind, spent[kind] ?? 0)} of ${describeAmount(kind, limit)}`,
      });
    }
  }
}

