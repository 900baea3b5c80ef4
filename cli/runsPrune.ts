// `squadron runs prune`: deletes finished runs older than a cutoff (completed, failed, stopped;
// never a run that is running, waiting for the operator or interrupted, which resume continues),
// with every row of them, their run log, and their workspace when it is the default one under
// .squadron/workspaces (a workspace named with --workspace is the user's and stays). --dry-run says
// what would go. Workspaces left without a run in a database (a run deleted by hand) go too, and so
// does what `serve` kept beside the runs once nothing relies on it (api/prune.ts), counted per kind.
// SQUADRON_CLOCK (an ISO time or ms) sets "now", as it does for serve.

import type { Command } from 'commander';
import { CliError, type CliIo } from './io.js';
import { JSON_FLAG_HELP, writeJson } from './json.js';
import { DB_OPTION_HELP, openStoresToWrite, shownPath } from './databaseAccess.js';
import type { PruneResult } from '../api/prune.js';

type HistoryPruned = PruneResult['history'];

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
    .description('Delete finished runs older than --older-than, with their logs, default workspaces and serve history')
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
  const clock = io.env['SQUADRON_CLOCK'];
  const injected = clock ? (/^\d+$/.test(clock) ? Number(clock) : Date.parse(clock)) : NaN;
  const now = Number.isFinite(injected) ? injected : Date.now();
  const cutoff = now - ms;
  const { pruneRuns } = await import('../api/prune.js');
  const stores = await openStoresToWrite(io, flags.db);
  const pruned: { id: string; mission: string; status: string; finished_at: string; db: string; workspace: string | null }[] = [];
  const orphans: string[] = [];
  const history: HistoryPruned = { deliveryLog: 0, idempotencyKeys: 0, signatures: 0, scheduleFires: 0, runCancels: 0, startedDeliveries: 0 };
  try {
    for (const { store, path } of stores) {
      const done = await pruneRuns(store, { cutoff, ...(flags.keep !== undefined ? { keep: flags.keep } : {}), dryRun: Boolean(flags.dryRun), db: path, now });
      for (const r of done.runs) pruned.push({ id: r.id, mission: r.mission, status: r.status, finished_at: r.finishedAt, db: shownPath(io, path), workspace: r.workspace === undefined ? null : shownPath(io, r.workspace) });
      orphans.push(...done.orphanWorkspaces.map((w) => shownPath(io, w)));
      for (const kind of Object.keys(history) as (keyof HistoryPruned)[]) history[kind] += done.history[kind];
    }
  } finally {
    for (const { store } of stores) await store.close();
  }
  if (flags.json) {
    const h = history;
    writeJson(io, {
      dry_run: Boolean(flags.dryRun),
      older_than: flags.olderThan,
      runs: pruned,
      orphan_workspaces: orphans,
      history: { webhook_log: h.deliveryLog, idempotency_keys: h.idempotencyKeys, signatures: h.signatures, schedule_fires: h.scheduleFires, run_cancels: h.runCancels, started_deliveries: h.startedDeliveries },
    });
    return;
  }
  const verb = flags.dryRun ? 'would delete' : 'deleted';
  for (const r of pruned) io.stdout.write(`${verb} ${r.id} (${r.mission}, ${r.status} ${r.finished_at.replace('T', ' ').slice(0, 19)})${r.workspace ? ` and ${r.workspace}` : ''}\n`);
  for (const w of orphans) io.stdout.write(`${verb} ${w} (a workspace with no run)\n`);
  io.stdout.write(`${flags.dryRun ? 'would prune' : 'pruned'} ${pruned.length} run${pruned.length === 1 ? '' : 's'} finished more than ${flags.olderThan} ago${orphans.length > 0 ? ` and ${orphans.length} workspace${orphans.length === 1 ? '' : 's'} without a run` : ''}\n`);
  io.stdout.write(`${flags.dryRun ? 'would prune' : 'pruned'} from serve's history: ${historyLine(history)}\n`);
}

/** The service rows pruned, one count per kind. */
function historyLine(h: HistoryPruned): string {
  const n = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
  return [
    n(h.deliveryLog, 'webhook log entry', 'webhook log entries'),
    n(h.idempotencyKeys, 'idempotency key'),
    n(h.signatures, 'signature'),
    n(h.scheduleFires, 'schedule fire'),
    n(h.runCancels, 'cancel request'),
    n(h.startedDeliveries, 'started delivery', 'started deliveries'),
  ].join(', ');
}
