// `squadron resume <run-id>`: continues a stopped or crashed run where it stopped, with the same
// output contract and exit codes as `run`. It reuses the run's non-secret variables, asks again for
// its secret ones, refuses a changed config (unless --allow-config-change) and a failed run (unless
// --retry-failed) before doing anything.

import type { Command } from 'commander';

import { CliError, collect, parseKeyValues, type CliIo } from '../io.js';
import { JSON_FLAG_HELP } from '../json.js';
import { loadProject } from '../project.js';
import { DB_OPTION_HELP, existingDbPath, shownPath } from '../storeAccess.js';
import { interruptOnSigint, printRunReport, runEnvironment } from '../runReport.js';

interface ResumeFlags {
  db?: string;
  json?: boolean;
  var: string[];
  config?: string;
  retryFailed?: boolean;
  allowConfigChange?: boolean;
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
    .option('--allow-config-change', "continue although the config or a variable differs from the run's (recorded on the run)")
    .action(async (runId: string, flags: ResumeFlags) => {
      io.exitCode = await resumeCommand(io, runId, flags);
    });
}

async function resumeCommand(io: CliIo, runId: string, flags: ResumeFlags): Promise<number> {
  const [{ failedRunRefusal, resumeRun, RunBusy, RunRefused, storedRun }, { missingSecrets, resumeEnv }] = await Promise.all([
    import('../../runtime/run.js'),
    import('../../runtime/runConfig.js'),
  ]);
  const dbPath = existingDbPath(io, flags.db);
  const stored = storedRun(dbPath, runId);
  if (!stored) throw new CliError(`no run ${runId} in ${shownPath(io, dbPath)} (see squadron runs --db …)`, 'not_found');
  const vars = parseKeyValues(flags.var, '--var');
  const resumeCommandLine = `squadron resume ${runId} --db ${shownPath(io, dbPath)}`;
  const refused = (error: InstanceType<typeof RunRefused>): CliError => {
    const hint = error.retryable ? `; to run its failed tasks again from fresh sessions: ${resumeCommandLine} --retry-failed` : '';
    // The table in docs/concepts/cli.md: busy and failed runs are states (exit 1); the rest is what was given (exit 2).
    const code = error instanceof RunBusy ? 'run_busy' : error.retryable ? 'refused' : 'run_refused';
    return new CliError(`${error.message}${hint}`, code);
  };

  // A failed run is refused first: giving its secrets again would not make a plain resume work.
  const failed = flags.retryFailed ? undefined : failedRunRefusal(runId, stored.status, stored.failedTasks);
  if (failed) throw refused(failed);

  // Secrets are never stored: all the missing ones are named at once, before anything is loaded or written.
  const missing = stored.status === 'completed' || !stored.variables ? [] : missingSecrets(stored.variables, vars, io.env);
  if (missing.length > 0) {
    const lines = missing.map((name) => `  ${name}: pass --var ${name}=… or set SQUADRON_VAR_${name}`);
    const count = missing.length === 1 ? 'a secret variable' : `${missing.length} secret variables`;
    throw new CliError(`run ${runId} needs ${count} again (secret values are never stored with a run):\n${lines.join('\n')}`, 'usage');
  }

  const project = loadProject({ ...io, env: resumeEnv(stored.variables, io.env) }, flags.config ?? stored.configPath, vars);
  const interrupt = interruptOnSigint(io);
  try {
    const report = await resumeRun(runEnvironment(io, project, dbPath, interrupt.signal, Boolean(flags.json)), runId, {
      retryFailed: Boolean(flags.retryFailed),
      allowConfigChange: Boolean(flags.allowConfigChange),
      onStart: (id) => {
        if (!flags.json) io.stdout.write(`run ${id}\n`);
      },
      onNote: (message) => io.stderr.write(`note: ${message}\n`),
    });
    return printRunReport(io, report, Boolean(flags.json), resumeCommandLine);
  } catch (error) {
    throw error instanceof RunRefused ? refused(error) : error;
  } finally {
    interrupt.dispose();
  }
}
