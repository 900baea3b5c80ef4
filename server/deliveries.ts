// Accepted webhook deliveries: stored (webhook_runs) before the 202 that names their run id, then
// started with that id. A delivery whose server died before its run was stored is started by the
// next recovery pass (of any server of the database); the run id being the runs table's key, a
// delivery starts one run however many servers try.

import { SquadronError, type AcceptedDelivery } from '../api/index.js';
import { errorText, type Log } from './log.js';
import type { ServerState } from './routes.js';

/** A delivery this young may still be being started by the server that accepted it. */
const FOREIGN_AFTER_MS = 5_000;

/** Run ids whose start is under way here and not stored yet (the recovery pass leaves them alone). */
const queued = new Set<string>();

/** Starts an accepted delivery's run after the 202 is written; a refused one's row is forgotten (a stored one's by the next recovery pass). */
export function startDelivery(state: ServerState, log: Log, d: AcceptedDelivery, onRefused?: () => Promise<void>): void {
  queued.add(d.runId);
  setImmediate(() => void startNow(state, log, d, onRefused).catch(() => undefined).finally(() => queued.delete(d.runId)));
}

async function startNow(state: ServerState, log: Log, d: AcceptedDelivery, onRefused?: () => Promise<void>): Promise<void> {
  if (state.closing.aborted) return; // left for the next server
  const deliveries = state.store.webhookDeliveries;
  try {
    const mission = state.project().graph.missions.find((m) => m.name === d.mission);
    if (!mission) throw new SquadronError('not_found', `mission ${d.mission} is no longer in the config`);
    await state.runner.start(state.project(), d.mission, d.inputs, undefined, d.runId);
    // The run is stored (on a run thread's connection): forget the row. Should this write fail, the
    // next recovery pass forgets it, finding the run stored.
    await state.writes.write((tx) => tx.webhookDeliveries.settle(d.runId)).catch((error: unknown) => log('warn', 'could not forget a started webhook delivery; the next recovery pass will', { run_id: d.runId, error: errorText(error) }));
  } catch (error) {
    // Already stored (another server, or a start before a crash): nothing to do but forget the row.
    if (error instanceof SquadronError && error.code === 'run_busy' && (await state.store.runs.get(d.runId))) {
      await deliveries.settle(d.runId);
      return;
    }
    log('error', 'webhook delivery could not start its run', { run_id: d.runId, path: d.path, error: errorText(error) });
    // Anything but a refusal (the database busy or failing, say) leaves the row: the next recovery
    // pass, or the next server, tries again.
    if (!(error instanceof SquadronError)) return;
    await deliveries.refuseStarted(d.runId, error.message);
    await deliveries.settle(d.runId);
    await onRefused?.();
  }
}

/** Starts every accepted delivery left without its run (a server stopped between its 202 and the run's start). */
export async function startPendingDeliveries(state: ServerState, log: Log): Promise<void> {
  // Only those old enough to have been left: during a burst, the young ones (thousands, perhaps) are
  // being started by the server that accepted them, and reading them each pass would stall this thread.
  const pending = await state.store.webhookDeliveries.pending(new Date(Date.now() - FOREIGN_AFTER_MS).toISOString());
  for (const d of pending) {
    if (state.closing.aborted) return;
    if (await state.store.runs.get(d.runId)) {
      await state.store.webhookDeliveries.settle(d.runId);
      continue;
    }
    if (queued.has(d.runId) || state.runner.isDriving(d.runId)) continue;
    log('info', 'starting an accepted webhook delivery left by a stopped server', { run_id: d.runId, path: d.path });
    startDelivery(state, log, d);
  }
}
