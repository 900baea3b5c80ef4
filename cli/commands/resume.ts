// `squadron resume <run-id>`: continues a stopped or crashed run where it stopped, with the same
// output contract and exit codes as `run`. It reuses the run's non-secret variables, asks again for
// its secret ones, refuses a changed config (unless --allow-config-change) and a failed run (unless
// --retry-failed) before doing anything.

import { storedRunHooks } from '../storedRunHooks.js';
import { resolve } from 'node:path';
import type { Command } from 'commander';

import { CliError, collect, parseKeyValues, type CliIo } from '../io.js';
import { JSON_FLAG_HELP } from '../json.js';
import { parseBudgetFlag, type Limits } from '../../api/usage.js';
import { configErrors, maskSecrets, secretsSeen } from '../project.js';
import { DB_OPTION_HELP, noRunIn, resumeDatabase, shownPath, storeCommand } from '../databaseAccess.js';
import { readDbLocation } from '../dbLocation.js';
import { isPostgresUrl } from '../../api/database.js';
import type { ResumeRequest } from '../../api/index.js';
import { interruptOnSigint, printRunReport } from '../runReport.js';

interface ResumeFlags {
  db?: string;
  json?: boolean;
  var: string[];
  config?: string;
  retryFailed?: boolean;
  allowConfigChange?: boolean;
  acceptNewWorkspace?: boolean;
  budget: string[];
  detach?: boolean;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('resume')
    .description('Continue an interrupted run without redoing finished work')
    .argument('<run-id>', 'the run to continue (see `squadron runs`)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .option('--var <name=value>', "a variable value: the run's secret ones must be given again; others default to the run's (repeatable)", collect, [])
    .option('-c, --config <path>', 'load the config from here instead of the path stored with the run')
    .option('--retry-failed', 'run the failed tasks again from fresh sessions (completed tasks are kept)')
    .option('--budget <kind=value>', 'raise a budget for this and later resumes: dollars=5, tokens=200000, duration=45m, or <task>.dollars=5 (repeatable)', collect, [])
    .option('--allow-config-change', "continue although the config or a variable differs from the run's (recorded on the run)")
    .option('--accept-new-workspace', "continue although the run's workspace folder is gone (a new empty one is made) or was replaced by another folder")
    .option('--detach', 'PostgreSQL only: queue the run again for `squadron worker` processes, print its id and return')
    .action(async (runId: string, flags: ResumeFlags) => {
      io.exitCode = await resumeCommand(io, runId, flags);
    });
}

/** `--budget` values by scope; a malformed one is a usage error before anything is opened. */
function budgetRaises(values: readonly string[]): Record<string, Limits> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, Limits> = {};
  for (const value of values) {
    const parsed = parseBudgetFlag(value);
    if ('error' in parsed) throw new CliError(parsed.error, 'usage');
    out[parsed.scope] = { ...out[parsed.scope], [parsed.kind]: parsed.value };
  }
  return out;
}

async function resumeCommand(io: CliIo, runId: string, flags: ResumeFlags): Promise<number> {
  const { resume, requeue, SquadronError } = await import('../../api/index.js');
  const budget = budgetRaises(flags.budget);
  // Refused before any database is opened: SQLite runs have no workers to take them.
  if (flags.detach && !readDbLocation(io.cwd, io.env, flags.db).paths.some(isPostgresUrl)) {
    throw new CliError(`--detach needs a PostgreSQL database (--db postgres://… or SQUADRON_DATABASE_URL): a SQLite run has no workers to take it; resume it without --detach`, 'usage');
  }
  const dbPath = await resumeDatabase(io, flags.db, runId);
  const resumeCommandLine = storeCommand(io, 'resume', runId, dbPath);
  const seen = secretsSeen();
  const interrupt = interruptOnSigint(io);
  try {
    const request: ResumeRequest = {
      runId,
      db: dbPath,
      vars: parseKeyValues(flags.var, '--var'),
      env: io.env,
      ...(flags.config ? { config: resolve(io.cwd, flags.config) } : {}),
      retryFailed: Boolean(flags.retryFailed),
      allowConfigChange: Boolean(flags.allowConfigChange),
      acceptNewWorkspace: Boolean(flags.acceptNewWorkspace),
      ...(budget ? { budget } : {}),
      ...storedRunHooks(io, Boolean(flags.json), seen, interrupt.signal),
      onStart: (id) => {
        if (!flags.json) io.stdout.write(`run ${id}\n`);
      },
      onNote: (message: string) => io.stderr.write(`note: ${message}\n`),
    };
    if (flags.detach) {
      const status = await requeue({ ...request, onStart: () => undefined });
      if (flags.json) io.stdout.write(`${JSON.stringify({ run_id: runId, status }, null, 2)}\n`);
      else if (status === 'completed') io.stdout.write(`run ${runId}\nalready completed: nothing to resume; see it with: ${storeCommand(io, 'inspect', runId, dbPath)}\n`);
      else io.stdout.write(`run ${runId}\nqueued again for the workers of ${shownPath(io, dbPath)} (squadron worker); follow it with: ${storeCommand(io, 'inspect', runId, dbPath)}\n`);
      return 0;
    }
    const report = await resume(request);
    return printRunReport(io, report, Boolean(flags.json), resumeCommandLine, storeCommand(io, 'inspect', runId, dbPath));
  } catch (error) {
    // The run is looked up by resume's own open of the database (the CLI does not open it first).
    if (error instanceof SquadronError && error.code === 'not_found' && error.message.startsWith(`no run ${runId} in `)) throw noRunIn(io, runId, [dbPath]);
    if (error instanceof SquadronError && error.code === 'not_found') throw new CliError(`${error.message} (see squadron runs)`, 'not_found');
    if (error instanceof SquadronError && error.code === 'refused') {
      throw new CliError(`${error.message}; to run its failed tasks again from fresh sessions: ${resumeCommandLine} --retry-failed`, 'refused');
    }
    if (error instanceof SquadronError && error.code === 'invalid_config') {
      await maskSecrets(io, seen.secrets());
      throw configErrors(io, error);
    }
    throw error;
  } finally {
    interrupt.dispose();
  }
}
