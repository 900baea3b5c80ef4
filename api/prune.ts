// Deleting finished runs (`squadron runs prune`): runs completed, failed, stopped or cancelled before a
// cutoff — never one running, waiting for the operator or interrupted, which resume continues — with
// every row of them, their run log, and their workspace when it is the default one under
// .squadron/workspaces (a workspace named with --workspace is the user's and stays). Workspaces left
// without a run in a SQLite database's project (a run deleted by hand) go too.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runLogPath, SQUADRON_DIR, workspacePath } from '../config/projectLayout.js';
import { isPostgresUrl } from '../store/postgres/url.js';
import type { Store } from '../store/index.js';

const PRUNABLE = new Set(['completed', 'failed', 'stopped', 'cancelled']);

export interface PruneRequest {
  /** Runs finished before this time (ms since the epoch) go. */
  cutoff: number;
  /** Keep at least the newest `keep` finished runs of each mission, whatever their age. */
  keep?: number;
  /** Say what would go; delete nothing. */
  dryRun: boolean;
  /** The database `store` was opened from: for a SQLite file, its project's workspaces without a run go too. */
  db: string;
}

export interface PrunedRun {
  id: string;
  mission: string;
  status: string;
  finishedAt: string;
  /** The default workspace deleted with it (absolute). */
  workspace?: string;
}

/** The runs pruned (or, dry, that would be), newest first, and the workspaces without a run. */
export async function pruneRuns(store: Store, req: PruneRequest): Promise<{ runs: PrunedRun[]; orphanWorkspaces: string[] }> {
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
    if (!req.dryRun) {
      await store.runs.remove(summary.id);
      if (workspace !== undefined) {
        rmSync(workspace, { recursive: true, force: true });
        rmSync(runLogPath(dirname(dirname(dirname(workspace))), summary.id), { force: true });
      }
    }
    runs.push({ id: summary.id, mission: summary.mission, status: summary.status, finishedAt: summary.finishedAt, ...(workspace !== undefined ? { workspace } : {}) });
  }
  const orphanWorkspaces = isPostgresUrl(req.db) ? [] : await orphans(store, dirname(dirname(req.db)), req.dryRun);
  return { runs, orphanWorkspaces };
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
