// `squadron runs prune`: deletes finished runs older than a cutoff (completed, failed, stopped;
// never a run that is running, waiting for the operator or interrupted, which resume continues),
// with every row of them, their run log, and their workspace when it is the default one under
// .squadron/workspaces (a workspace named with --workspace is the user's and stays). --dry-run says
// what would go. Workspaces left without a run in a database (a run deleted by hand) go too.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import { isPostgresUrl, runLogPath, SQUADRON_DIR, workspacePath } from '../api/database.js';
import { CliError, type CliIo } from './io.js';
import { JSON_FLAG_HELP, writeJson } from './json.js';
import { DB_OPTION_HELP, openStoresToWrite, shownPath } from './databaseAccess.js';

const PRUNABLE = new Set(['completed', 'failed', 'stopped', 'cancelled']);
const AGE = /^(\d+)(d|h|m)$/;

interface PruneFlags {
  olderThan: string;
  keep?: number;
  dryRun?: boolean;
  db?: string;
  json?: boolean;
}

export function registerPrune(runs: Command, io: CliIo): void {
  runs
    .command('prune')
    .description('Delete finished runs older than --older-than, with their logs and default workspaces')
    .option('--older-than <age>', 'finished before this long ago: 30d, 12h, 90m', '30d')
    .option('--keep <n>', 'keep at least the newest n finished runs of each mission whatever their age', (v) => {
      if (!/^\d+$/.test(v)) throw new CliError(`--keep expects a whole number, not "${v}"`, 'usage');
      return Number(v);
    })
    .option('--dry-run', 'say what would be deleted, delete nothing')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    // `runs` has --db and --json too, and takes them wherever they stand: read both levels.
    .action(async (_flags: PruneFlags, command: Command) => {
      await prune(io, command.optsWithGlobals<PruneFlags>());
    });
}

async function prune(io: CliIo, flags: PruneFlags): Promise<void> {
  const age = AGE.exec(flags.olderThan);
  if (!age) throw new CliError(`--older-than expects an age such as 30d, 12h or 90m, not "${flags.olderThan}"`, 'usage');
  const ms = Number(age[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[age[2] as 'd' | 'h' | 'm'];
  const cutoff = Date.now() - ms;
  const stores = await openStoresToWrite(io, flags.db);
  const pruned: { id: string; mission: string; status: string; finished_at: string; db: string; workspace: string | null }[] = [];
  const orphans: string[] = [];
  try {
    for (const { store, path } of stores) {
      const kept = new Map<string, number>();
      // Newest first: --keep counts each mission's newest finished runs.
      for (const summary of await store.runs.list({ limit: 1_000_000 })) {
        if (!PRUNABLE.has(summary.status) || summary.finishedAt === undefined) continue;
        const n = kept.get(summary.mission) ?? 0;
        if (flags.keep !== undefined && n < flags.keep) {
          kept.set(summary.mission, n + 1);
          continue;
        }
        if (Date.parse(summary.finishedAt) > cutoff) continue;
        const run = await store.runs.get(summary.id);
        const workspace = defaultWorkspace(run?.options['workspaceDir'], summary.id);
        if (!flags.dryRun) {
          await store.runs.remove(summary.id);
          if (workspace !== undefined) {
            rmSync(workspace, { recursive: true, force: true });
            rmSync(runLogPath(dirname(dirname(dirname(workspace))), summary.id), { force: true });
          }
        }
        pruned.push({ id: summary.id, mission: summary.mission, status: summary.status, finished_at: summary.finishedAt, db: shownPath(io, path), workspace: workspace === undefined ? null : shownPath(io, workspace) });
      }
      if (!isPostgresUrl(path)) orphans.push(...(await orphanWorkspaces(store, dirname(dirname(path)), Boolean(flags.dryRun))).map((w) => shownPath(io, w)));
    }
  } finally {
    for (const { store } of stores) await store.close();
  }
  if (flags.json) {
    writeJson(io, { dry_run: Boolean(flags.dryRun), older_than: flags.olderThan, runs: pruned, orphan_workspaces: orphans });
    return;
  }
  const verb = flags.dryRun ? 'would delete' : 'deleted';
  for (const r of pruned) io.stdout.write(`${verb} ${r.id} (${r.mission}, ${r.status} ${r.finished_at.replace('T', ' ').slice(0, 19)})${r.workspace ? ` and ${r.workspace}` : ''}\n`);
  for (const w of orphans) io.stdout.write(`${verb} ${w} (a workspace with no run)\n`);
  io.stdout.write(`${flags.dryRun ? 'would prune' : 'pruned'} ${pruned.length} run${pruned.length === 1 ? '' : 's'} finished more than ${flags.olderThan} ago${orphans.length > 0 ? ` and ${orphans.length} workspace${orphans.length === 1 ? '' : 's'} without a run` : ''}\n`);
}

/** The run's workspace when it is the default one (`<root>/.squadron/workspaces/<run>`), else undefined. */
function defaultWorkspace(dir: unknown, runId: string): string | undefined {
  if (typeof dir !== 'string' || basename(dir) !== runId) return undefined;
  const root = dirname(dirname(dirname(dir)));
  return workspacePath(root, runId) === dir ? dir : undefined;
}

/** Folders of `<root>/.squadron/workspaces` named like a run id that this database has no run for. */
async function orphanWorkspaces(store: { runs: { get(id: string): Promise<unknown> } }, root: string, dryRun: boolean): Promise<string[]> {
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
