// How often runners look at the shared queue, and which unit stands for a run's coordination.

import { DEFAULT_LEASE_STALE_MS, type UnitKey } from '../store/index.js';

/** Runners poll an empty queue, and coordinators their units in flight, this often (ms). */
export const QUEUE_TIMING = { pollMs: 100, staleAfterMs: DEFAULT_LEASE_STALE_MS };

/** The unit of work that is the coordination (scheduling) of a run. */
export function runUnitKey(runId: string): UnitKey {
  return { runId, kind: 'run', task: '', attempt: 0 };
}
