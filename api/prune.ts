// Deleting finished runs (`squadron runs prune`): runs completed, failed, stopped or cancelled before a
// cutoff — never one running, waiting for the operator or interrupted, which resume continues — with
// every row of them, their run log, and their workspace when it is the default one under
// .squadron/workspaces (a workspace named with --workspace is the user's and stays). Workspaces left
// without a run in a SQLite database's project (a run deleted by hand) go too. So does what `serve`
// kept beside them once nothing relies on it (store/repos/serviceHistory.ts): delivery log entries and
// schedule fires older than the cutoff whose run is gone, idempotency keys past their window,
// signatures past any replay's tolerance, cancel requests of runs gone, accepted deliveries whose run
// is stored — never a delivery still to start, nor a schedule's last fire.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runLogPath, SQUADRON_DIR, workspacePath } from '../config/projectLayout.js';
import { isPostgresUrl } from '../store/postgres/url.js';
import type { Store } from '../store/index.js';
import type { HistoryPruned } from '../store/index.js';
import { SIGNATURE_TOLERANCE_S } from './webhookSignature.js';

const PRUNABLE = new Set(['completed', 'failed', 'stopped', 'cancelled']);

/**
 * How long a webhook's Idempotency-Key is remembered at least, whatever --older-than says: a sender
 * redelivering within it gets the first delivery's run (`duplicate`), never a second run
 * (docs/blocks/trigger.md). Past it, `runs prune` may forget the key.
 */
export const IDEMPOTENCY_KEY_WINDOW_MS = 7 * 86_400_000;

/**
 * How long a seen signature is remembered at least: a replay is refused for reuse while its
 * timestamp is inside the tolerance (either side of the server's clock); an hour leaves room for
 * clocks of several servers that disagree. After that the timestamp alone refuses it.
 */
export const SIGNATURE_MEMORY_MS = Math.max(3_600_000, 4 * SIGNATURE_TOLERANCE_S * 1000);

export interface PruneRequest {
  /** Runs finished before this time (ms since the epoch) go. */
  cutoff: number;
  /** Keep at least the newest `keep` finished runs of each mission, whatever their age. */
  keep?: number;
  /** Say what would go; delete nothing. */
  dryRun: boolean;
  /** The database `store` was opened from: for a SQLite file, its project's workspaces without a run go too. */
  db: string;
  /** The time now (ms since the epoch) the windows of keys and signatures count from; default the clock's. */
  now?: number;
}

export interface PrunedRun {
  id: string;
  mission: string;
  status: string;
  finishedAt: string;
  /** The default workspace deleted with it (absolute). */
  workspace?: string;
}

export interface PruneResult {
  /** Newest first. */
  runs: PrunedRun[];
  orphanWorkspaces: string[];
  /** Rows of `serve`'s history pruned, per kind. */
  history: HistoryPruned;
}

/** The runs pruned (or, dry, that would be), the workspaces without a run, and the service rows that went with them. */
export async function pruneRuns(store: Store, req: PruneRequest): Promise<PruneResult> {
  const runs: PrunedRun[] = [];
  const kept = new Map<string, number>();
  // Newest first: `keep` counts each mission's newest finished runs.
  for (const summary of await store.runs.list({ limit: 1_000_000 })) {
    if (!PRUNABLE.has(summary.status) || summary.finishedAt === undefined) continue;
    const n = kept.get(summary.mission) ?? 0;
    if (req.keep !== undefined && n < req.keep) {
      kept.set(summary.mission, n + 1);
      continue;
    }
    if (Date.parse(summary.finishedAt) > req.cutoff) continue;
    const run = await store.runs.get(summary.id);
    const workspace = defaultWorkspace(run?.options['workspaceDir'], summary.id);
    runs.push({ id: summary.id, mission: summary.mission, status: summary.status, finishedAt: summary.finishedAt, ...(workspace !== undefined ? { workspace } : {}) });
  }
  // The service's rows first, in one transaction: an accepted delivery's row must never outlive its
  // run (a later server would start the run again), and a crash after it leaves runs the next prune takes.
  const now = req.now ?? Date.now();
  const history = await store.transaction((tx) =>
    tx.serviceHistory.prune({
      before: new Date(req.cutoff).toISOString(),
      keysBefore: new Date(Math.min(req.cutoff, now - IDEMPOTENCY_KEY_WINDOW_MS)).toISOString(),
      signaturesBefore: new Date(Math.min(req.cutoff, now - SIGNATURE_MEMORY_MS)).toISOString(),
      goneRuns: runs.map((r) => r.id),
      dryRun: req.dryRun,
    }),
  );
  if (!req.dryRun) {
    for (const r of runs) {
      await store.runs.remove(r.id);
      if (r.workspace !== undefined) {
        rmSync(r.workspace, { recursive: true, force: true });
        rmSync(runLogPath(dirname(dirname(dirname(r.workspace))), r.id), { force: true });
      }
    }
  }
  const orphanWorkspaces = isPostgresUrl(req.db) ? [] : await orphans(store, dirname(dirname(req.db)), req.dryRun);
  return { runs, orphanWorkspaces, history };
}

/** The run's workspace when it is the default one (`<root>/.squadron/workspaces/<run>`), else undefined. */
function defaultWorkspace(dir: unknown, runId: string): string | undefined {
  if (typeof dir !== 'string' || basename(dir) !== runId) return undefined;
  const root = dirname(dirname(dirname(dir)));
  return workspacePath(root, runId) === dir ? dir : undefined;
}

/** Folders of `<root>/.squadron/workspaces` named like a run id that this database has no run for. */
async function orphans(store: Store, root: string, dryRun: boolean): Promise<string[]> {
  const dir = join(root, SQUADRON_DIR, 'workspaces');
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !/^run_[a-z0-9]+$/.test(entry.name)) continue;
    if ((await store.runs.get(entry.name)) !== undefined) continue;
    const path = join(dir, entry.name);
    if (!dryRun) rmSync(path, { recursive: true, force: true });
    out.push(path);
  }
  return out;
}
