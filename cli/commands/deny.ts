// `squadron deny <run-id> --call ID --reason "…"`: denies a tool call waiting in a run; on `resume`
// the model gets the reason as the call's result, and the tool never runs.

import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import { recordDecision } from '../operatorCommands.js';
import { DB_OPTION_HELP } from '../databaseAccess.js';
import { JSON_FLAG_HELP } from '../json.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('deny')
    .description('Deny a tool call a run waits on: the model gets your reason instead of a result')
    .argument('<run-id>', 'the waiting run (see `squadron runs`)')
    .option('--call <id>', 'the request to deny (ap_…); optional when only one waits')
    .requiredOption('--reason <text>', 'why: the model reads it as the result of the call')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (runId: string, flags: { call?: string; reason: string; db?: string; json?: boolean }) => {
      if (flags.reason.trim() === '') throw new CliError('--reason must say why (the model reads it)', 'usage');
      await recordDecision(io, runId, flags, { kind: 'deny', ...(flags.call ? { id: flags.call } : {}), reason: flags.reason });
    });
}
