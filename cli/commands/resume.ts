// `squadron resume <run-id>`: continues a stopped or crashed run where it stopped, with the same
// output contract and exit codes as `run`.

import type { Command } from 'commander';

import { CliError, collect, EXIT, parseKeyValues, type CliIo } from '../io.js';
import { loadProject } from '../project.js';
import { DB_OPTION_HELP, findRunDatabase, shownPath, storeCommand } from '../storeAccess.js';
import { interruptOnSigint, printRunReport, runEnvironment } from '../runReport.js';

interface ResumeFlags {
  db?: string;
  json?: boolean;
  var: string[];
  config?: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('resume')
    .description('Continue an interrupted run without redoing finished work')
    .argument('<run-id>', 'the run to continue (see `squadron runs`)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', 'print one JSON document on stdout')
    .option('--var <name=value>', 'a variable value, e.g. a secret (repeatable)', collect, [])
    .option('-c, --config <path>', 'load the config from here instead of the path stored with the run')
    .action(async (runId: string, flags: ResumeFlags) => {
      io.exitCode = await resumeCommand(io, runId, flags);
    });
}

async function resumeCommand(io: CliIo, runId: string, flags: ResumeFlags): Promise<number> {
  const { resumeRun, RunRefused, storedRun } = await import('../../runtime/run.js');
  const dbPath = await findRunDatabase(io, flags.db, runId);
  const stored = storedRun(dbPath, runId);
  if (!stored) throw new CliError(`no run ${runId} in ${shownPath(io, dbPath)} (see squadron runs)`);
  const project = loadProject(io, flags.config ?? stored.configPath, parseKeyValues(flags.var, '--var'));
  const interrupt = interruptOnSigint(io);
  try {
    const report = await resumeRun(runEnvironment(io, project, dbPath, interrupt.signal, Boolean(flags.json)), runId);
    return printRunReport(io, report, Boolean(flags.json), storeCommand(io, 'resume', runId, dbPath), storeCommand(io, 'inspect', runId, dbPath));
  } catch (error) {
    if (error instanceof RunRefused) throw new CliError(error.message, EXIT.failure);
    throw error;
  } finally {
    interrupt.dispose();
  }
}
