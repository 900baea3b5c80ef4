// `squadron runs`: the stored runs, newest first, with status, duration, tokens and cost.

import type { Command } from 'commander';
import { spendText } from '../../api/usage.js';
import { listRuns } from '../../api/runDocuments.js';
import { forkPointText } from '../../api/forkText.js';
import { positiveInt, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { DB_OPTION_HELP, openStoresToRead, shownPath } from '../databaseAccess.js';
import { formatDuration, table } from '../table.js';
import { groupDigits } from '../../core/digits.js';
import { registerPrune } from '../runsPrune.js';

/** `1 approval, 2 questions` */
function waitingText(requests: readonly Record<string, unknown>[]): string {
  const approvals = requests.filter((r) => r['kind'] === 'approval').length;
  const questions = requests.length - approvals;
  const parts = [approvals > 0 ? `${approvals} approval${approvals === 1 ? '' : 's'}` : '', questions > 0 ? `${questions} question${questions === 1 ? '' : 's'}` : ''];
  // Every request decided, the run not yet resumed: say what is left to do, not `waiting ()`.
  return parts.filter(Boolean).join(', ') || 'all decided: resume it';
}

export function register(program: Command, io: CliIo): void {
  const runs = program
    .command('runs')
    .description('List stored runs, newest first')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--mission <name>', 'only runs of this mission')
    .option('--limit <n>', 'at most this many runs', positiveInt('--limit'), 50)
    .option('--json', JSON_FLAG_HELP)
    .action(async (flags: { db?: string; mission?: string; limit: number; json?: boolean }) => {
      const stores = await openStoresToRead(io, flags.db);
      try {
        const opts: { limit: number; mission?: string } = { limit: flags.limit };
        if (flags.mission) opts.mission = flags.mission;
        const listed = [];
        for (const { store, path } of stores) {
          for (const r of await listRuns(store, opts)) listed.push({ ...r, db: shownPath(io, path) });
        }
        const rows = listed
          // Several databases (found below the current folder): newest first across all of them.
          .sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0))
          .slice(0, flags.limit);
        if (flags.json) {
          writeJson(io, { runs: rows });
          return;
        }
        if (rows.length === 0) {
          io.stdout.write('no runs yet\n');
          return;
        }
        // Lineage gets a column only when some listed run is a fork.
        const forks = rows.some((r) => r.parent_run_id !== undefined);
        io.stdout.write(
          table(
            ['RUN', 'MISSION', 'STATUS', 'STARTED', 'DURATION', 'TASKS', 'TOKENS', 'COST', 'BUDGET', ...(forks ? ['FORKED FROM'] : [])],
            rows.map((r) => [
              r.id,
              r.mission,
              r.waiting_for ? `waiting (${waitingText(r.waiting_for)})` : r.status,
              r.started_at.replace('T', ' ').slice(0, 19),
              r.duration_ms === null ? '-' : formatDuration(r.duration_ms),
              `${r.tasks.completed}/${r.tasks.total}${r.tasks.skipped > 0 ? ` (${r.tasks.skipped} skipped)` : ''}`,
              groupDigits(r.tokens),
              `$${r.cost_usd.toFixed(4)}`,
              r.budget ? spendText(r.budget) : '-',
              ...(forks ? [r.parent_run_id !== undefined && r.fork ? forkPointText(r.parent_run_id, r.fork) : '-'] : []),
            ]),
          ),
        );
      } finally {
        for (const { store } of stores) await store.close();
      }
    });
  registerPrune(runs, io);
}
