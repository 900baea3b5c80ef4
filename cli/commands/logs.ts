// `squadron logs <run-id> [-f]`: a run's events as they were stored, one line each; with -f, new
// ones as they come until the run ends (a detached run followed from another shell).

import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { DB_OPTION_HELP, openStoreWithRun } from '../databaseAccess.js';
import { printEvents } from '../eventFollow.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('logs')
    .description("Print a run's events; -f follows them until the run ends")
    .argument('<run-id>', 'the run (see `squadron runs`)')
    .option('-f, --follow', 'keep printing new events until the run ends')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', 'one JSON object a line: id, at, type, task, event (see squadron docs logs)')
    .action(async (runId: string, flags: { follow?: boolean; db?: string; json?: boolean }) => {
      const { store } = await openStoreWithRun(io, flags.db, runId);
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      try {
        await printEvents(io, store, runId, { follow: Boolean(flags.follow), json: Boolean(flags.json), stop: stop.signal });
      } finally {
        process.off('SIGINT', onSignal);
        await store.close();
      }
    });
}
