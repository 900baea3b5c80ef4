// `squadron approve <run-id> [--call ID…] [--all]`: approves tool calls waiting in a run; `resume`
// then runs them (each at most once).

import type { Command } from 'commander';
import { collect, type CliIo } from '../io.js';
import { recordDecision } from '../operatorCommands.js';
import { DB_OPTION_HELP } from '../databaseAccess.js';
import { JSON_FLAG_HELP } from '../json.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('approve')
    .description('Approve tool calls a run waits on (then `squadron resume` runs them)')
    .argument('<run-id>', 'the waiting run (see `squadron runs`)')
    .option('--call <id>', 'the request to approve (ap_…, as run and runs print it; repeatable); optional when only one waits', collect, [])
    .option('--all', 'approve every call the run waits on')
    .option('--reason <text>', 'why (recorded with the decision)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (runId: string, flags: { call: string[]; all?: boolean; reason?: string; db?: string; json?: boolean }) => {
      await recordDecision(io, runId, flags, { kind: 'approve', ids: flags.call, all: Boolean(flags.all), ...(flags.reason ? { reason: flags.reason } : {}) });
    });
}
