// `squadron worker`: a runner process on a PostgreSQL database. It takes tasks (and the scheduling of
// queued runs) from the database's queue until SIGINT/SIGTERM, prints one line per unit of work it
// takes and finishes, and on stop gives back what it holds unfinished.

import type { Command } from 'commander';
import { readDbLocation } from '../dbLocation.js';
import { CliError, type CliIo } from '../io.js';
import { isPostgresUrl } from '../../api/database.js';
import { shownPath } from '../databaseAccess.js';

interface WorkerFlags {
  db?: string;
  concurrency: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('worker')
    .description('Take tasks of runs from a PostgreSQL database until stopped (see `squadron docs scale-out`)')
    .option('--db <url>', 'the PostgreSQL connection string (postgres://…) whose queue to take work from (default: $SQUADRON_DATABASE_URL, else $SQUADRON_DB)')
    .option('--concurrency <n>', 'how many tasks this process executes at once', '4')
    .action(async (flags: WorkerFlags) => {
      io.exitCode = await workerCommand(io, flags);
    });
}

async function workerCommand(io: CliIo, flags: WorkerFlags): Promise<number> {
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`--concurrency must be a whole number of at least 1, not "${flags.concurrency}"`, 'usage');
  const db = readDbLocation(io.cwd, io.env, flags.db).paths[0];
  if (db === undefined || !isPostgresUrl(db)) {
    const where = db === undefined ? 'no database was given' : `${shownPath(io, db)} is a SQLite database, whose runs have one runner each`;
    throw new CliError(`squadron worker needs a PostgreSQL database (--db postgres://… or SQUADRON_DATABASE_URL); ${where}`, 'usage');
  }
  const { work } = await import('../../api/index.js');
  const stop = new AbortController();
  const onSignal = (): void => {
    if (stop.signal.aborted) return;
    io.stderr.write('stopping: giving back unfinished work…\n');
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    io.stdout.write(`worker ${process.pid} on ${shownPath(io, db)}, concurrency ${concurrency}\n`);
    await work({ db, concurrency, env: io.env, signal: stop.signal, onNote: (line) => io.stdout.write(`${line}\n`) });
    io.stdout.write('worker stopped\n');
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
