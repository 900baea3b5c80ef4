// The run's store sink: every event becomes a row of the events table. Events are a log: one that
// cannot be stored is reported and skipped, never fatal to the run. An event emitted in a durable
// step is written in that step's transaction. Any other is queued and the queue written in one
// transaction when the event loop's turn ends (a fan-out emits thousands of events; a commit each
// was a large share of its CPU), or at once, with what is queued before it, for the events a resumed
// run reads back (budget, MCP tool lists, skip reasons). settled() writes the queue and waits for it:
// before each model request leaves (the bus's barrier) and before the run is closed. Rows keep the order of emission.

import type { NewEvent, Store } from '../../store/index.js';
import type { EventScope, RunEvent, RunEventType } from '../kernel/events.js';
import type { RunLog } from './runLog.js';

export interface EventRows {
  sink(event: RunEvent, scope?: EventScope): void;
  /** Resolves once every event emitted so far outside a step has been written (or reported). */
  settled(): Promise<void>;
}

/** What resume reads from the events table: never left waiting in the queue. */
const READ_ON_RESUME = new Set<RunEventType>(['budget.raised', 'budget.warning', 'budget.limits', 'mcp.tools.changed', 'task.skipped', 'run.started']);

export function eventRows(store: Store, runId: string, log: RunLog): EventRows {
  let tail: Promise<void> = Promise.resolve();
  let queued: NewEvent[] = [];
  let turnEnd: NodeJS.Immediate | undefined;
  const report = (error: unknown, rows: readonly NewEvent[]): void =>
    void log.logger.error({ err: error, event: rows.map((r) => r.type).join(',') }, 'an event could not be stored');
  const take = (): NewEvent[] => {
    if (turnEnd) clearImmediate(turnEnd);
    turnEnd = undefined;
    const rows = queued;
    queued = [];
    return rows;
  };
  const flush = (): void => {
    const rows = take();
    if (rows.length === 0) return;
    tail = tail.then(() => store.events.appendMany(rows).catch((error: unknown) => report(error, rows)));
  };
  return {
    sink(event, scope) {
      const row = storedEvent(runId, event);
      if (scope) {
        // What was queued before the step's event goes in ahead of it, in the step's transaction.
        const rows = [...take(), row];
        scope.writes.push(scope.store.events.appendMany(rows).catch((error: unknown) => report(error, rows)));
        return;
      }
      queued.push(row);
      if (READ_ON_RESUME.has(event.type)) flush();
      else turnEnd ??= setImmediate(flush);
    },
    settled: () => {
      flush();
      return tail;
    },
  };
}

function storedEvent(runId: string, event: RunEvent): NewEvent {
  const row: NewEvent = { runId, type: event.type, data: event };
  if ('task' in event && typeof event.task === 'string') row.task = event.task;
  if ('sessionId' in event && typeof event.sessionId === 'string') row.sessionId = event.sessionId;
  return row;
}
