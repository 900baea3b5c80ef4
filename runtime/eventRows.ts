// The run's store sink: every event becomes a row of the events table. Events are a log: one that
// cannot be stored is reported and skipped, never fatal to the run. An event emitted in a durable
// step is written in that step's transaction; any other is written at once, or after the ones still
// being written (in emission order), and settled() waits for them before the run is closed.

import type { NewEvent, Store } from '../store/index.js';
import type { EventScope, RunEvent } from './events.js';
import type { RunLog } from './runLog.js';

export interface EventRows {
  sink(event: RunEvent, scope?: EventScope): void;
  /** Resolves once every event emitted so far outside a step has been written (or reported). */
  settled(): Promise<void>;
}

export function eventRows(store: Store, runId: string, log: RunLog): EventRows {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  const append = (target: Store, row: NewEvent): Promise<void> =>
    target.events.append(row).catch((error: unknown) => log.logger.error({ err: error, event: row.type }, 'an event could not be stored'));
  return {
    sink(event, scope) {
      const row = storedEvent(runId, event);
      if (scope) {
        scope.writes.push(append(scope.store, row));
        return;
      }
      pending += 1;
      const write = (): Promise<void> => append(store, row).finally(() => void (pending -= 1));
      tail = pending === 1 ? write() : tail.then(write);
    },
    settled: () => tail,
  };
}

function storedEvent(runId: string, event: RunEvent): NewEvent {
  const row: NewEvent = { runId, type: event.type, data: event };
  if ('task' in event && typeof event.task === 'string') row.task = event.task;
  if ('sessionId' in event && typeof event.sessionId === 'string') row.sessionId = event.sessionId;
  return row;
}
