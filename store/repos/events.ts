// Events: the run's typed event stream (redacted), readable incrementally by id for `--follow`.

import type { EventRow } from '../rows.js';

export interface NewEvent {
  runId: string;
  type: string;
  task?: string;
  sessionId?: string;
  data: unknown;
}

export interface EventsRepo {
  /** One statement, committed on return. */
  append(e: NewEvent): Promise<void>;
  /** Several events in one transaction: one commit instead of one per event. */
  appendMany(events: readonly NewEvent[]): Promise<void>;
  /** In order of id; `afterId` returns only newer events, `limit` caps the count. */
  list(runId: string, opts?: { afterId?: number; limit?: number }): Promise<EventRow[]>;
  /** Every run's events after `afterId`, in order of id (the live stream of all runs). */
  listAll(opts: { afterId: number; limit: number }): Promise<EventRow[]>;
}
