// How often runners look at the shared queue, and which unit stands for a run's coordination.

import { DEFAULT_LEASE_STALE_MS, type UnitKey } from '../../store/index.js';

/**
 * Coordinators read their units in flight this often (ms), as do runners an empty queue without
 * notices; with notices (LISTEN/NOTIFY) an idle runner wakes on one and polls every idlePollMs, for
 * the units whose holder is gone (no notice announces a stale heartbeat).
 */
export const QUEUE_TIMING = { pollMs: 100, idlePollMs: 1_000, staleAfterMs: DEFAULT_LEASE_STALE_MS };

/** The unit of work that is the coordination (scheduling) of a run. */
export function runUnitKey(runId: string): UnitKey {
  return { runId, kind: 'run', task: '', attempt: 0 };
}
