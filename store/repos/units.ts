// Units of work: the queue many runners take work from (PostgreSQL only). A unit is either the
// coordination of a run (kind 'run': the scheduler of that run) or one attempt of one task (kind
// 'task'). A runner claims a queued unit, holds it with heartbeats, and finishes it; a unit whose
// holder is gone (heartbeat older than the stale limit, or a dead pid on this host) is claimed again
// by another runner, which resumes the work from the ledger.

import type { LeaseOwner } from './leases.js';

export type UnitKind = 'run' | 'task';
export type UnitState = 'queued' | 'claimed' | 'cancelling' | 'done' | 'cancelled';

export interface UnitRow {
  id: string;
  runId: string;
  kind: UnitKind;
  /** '' for a run unit. */
  task: string;
  attempt: number;
  state: UnitState;
  /** What the task's execution returned (a task unit that is done). */
  outcome?: unknown;
  owner?: string;
  pid?: number;
  host?: string;
  /** How many times the unit was claimed (more than once: its first runner was lost). */
  claims: number;
  enqueuedAt: string;
  claimedAt?: string;
  heartbeatAt?: string;
  finishedAt?: string;
}

export interface UnitKey {
  runId: string;
  kind: UnitKind;
  task: string;
  attempt: number;
}

export interface ClaimFilter {
  /** Only units of this run (a `run` process executing its own tasks). */
  runId?: string;
  /** Only units of these kinds. */
  kinds?: readonly UnitKind[];
}

/** Notices that units were queued: how an idle runner waits for work without polling fast. */
export interface QueueSignal {
  /** How many notices have arrived so far: read before a claim, passed to wait() after an empty one. */
  readonly seen: number;
  /** Starts listening if needed; false when notices are unavailable now (the caller polls). */
  ready(): Promise<boolean>;
  /** Resolves once a notice arrived after `seen`, after `ms` at most, or when `signal` aborts. */
  wait(seen: number, ms: number, signal: AbortSignal): Promise<void>;
}

export interface UnitsRepo {
  /** PostgreSQL's LISTEN/NOTIFY: a notice each time a unit is queued (enqueue, requeue, release). */
  readonly queued?: QueueSignal;
  /**
   * Queues the unit, or returns it as it is: a queued, claimed or done unit is left alone; a
   * cancelled one is queued again (resume re-enqueues what an interrupted run left unfinished).
   */
  enqueue(key: UnitKey): Promise<UnitRow>;
  /**
   * Queues the unit again whatever its state (a done or cancelled one, or one claimed by a holder
   * that is gone), forgetting its holder and outcome: `resume --detach` of a run's coordination, made
   * under the run's lease so that no live runner holds it.
   */
  requeue(key: UnitKey): Promise<UnitRow>;
  /** Inserts the unit as already claimed by `owner` (a runner that starts coordinating its own run). */
  claimOwn(key: UnitKey, owner: LeaseOwner): Promise<UnitRow>;
  /**
   * Claims one unit: the oldest queued one, or one whose holder is gone (judged as run leases are);
   * undefined when there is none. Concurrent claimers never get the same unit (SKIP LOCKED).
   */
  claim(owner: LeaseOwner, staleAfterMs: number, filter?: ClaimFilter): Promise<UnitRow | undefined>;
  /** Renews our claim; false when the unit is no longer ours to work on (taken over, or being cancelled). */
  heartbeat(id: string, ownerId: string): Promise<boolean>;
  /** Marks our unit done with its outcome; false when it was no longer ours. */
  finish(id: string, ownerId: string, outcome?: unknown): Promise<boolean>;
  /** Gives our unit up: a claimed one is queued again, a cancelling one becomes cancelled. */
  release(id: string, ownerId: string): Promise<void>;
  /** Cancels a unit: a queued one at once, a claimed one once its holder notices (state 'cancelling'). */
  cancel(id: string): Promise<void>;
  get(id: string): Promise<UnitRow | undefined>;
  /**
   * How many of the run's task and item units are queued or held now, other than `except`: what a
   * coordinator checks before queueing one more, so that `max_parallel` holds whoever queued them.
   */
  activeCount(runId: string, except: UnitKey): Promise<number>;
  /** The units with these ids (those that exist), in no particular order: a coordinator's units in flight. */
  getMany(ids: readonly string[]): Promise<UnitRow[]>;
  list(runId: string): Promise<UnitRow[]>;
}
