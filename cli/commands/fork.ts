// `squadron fork <run-id> --at <task>`: a new run that keeps the parent's finished work before the fork
// point (never run again) and runs the rest, with changed inputs, variables or config if given. Same
// output contract and exit codes as `run` and `resume`.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { storedRunHooks } from '../storedRunHooks.js';
import { CliError, collect, parseKeyValues, positiveInt, type CliIo } from '../io.js';
import { JSON_FLAG_HELP } from '../json.js';
import { configErrors, maskSecrets, secretsSeen } from '../project.js';
import { DB_OPTION_HELP, noRunIn, resumeDatabase, storeCommand } from '../databaseAccess.js';
import type { ForkRequest } from '../../api/index.js';
import { interruptOnSigint, printRunReport } from '../runReport.js';

interface ForkFlags {
  at: string;
  turn?: number;
  setInput: string[];
  var: string[];
  config?: string;
  replay?: string;
  db?: string;
  json?: boolean;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('fork')
    .description('Run a stored run again from a task (or a turn of it) without redoing what finished before')
    .argument('<run-id>', 'the run to fork (see `squadron runs`); not one still running')
    .requiredOption('--at <task>', 'the fork point: this task and what follows it run again; tasks that finished before it are copied')
    .option('--turn <n>', "continue the task's commander (a direct task's worker) from its n-th model request", positiveInt('--turn'))
    .option('--set-input <name=value>', 'a mission input that replaces the parent run\'s (repeatable)', collect, [])
    .option('--var <name=value>', "a variable value (the parent's secret ones must be given again; repeatable)", collect, [])
    .option('-c, --config <path>', "load the config from here instead of the parent's path (an edited config: recorded as a change)")
    .option('--replay <file>', 'play model responses from this cassette (default: the future runs live)')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .action(async (runId: string, flags: ForkFlags) => {
      io.exitCode = await forkCommand(io, runId, flags);
    });
}

async function forkCommand(io: CliIo, runId: string, flags: ForkFlags): Promise<number> {
  const { fork, SquadronError } = await import('../../api/index.js');
  const dbPath = await resumeDatabase(io, flags.db, runId);
  const seen = secretsSeen();
  const interrupt = interruptOnSigint(io);
  let childId: string | undefined;
  try {
    const request: ForkRequest = {
      runId,
      db: dbPath,
      at: flags.at,
      ...(flags.turn !== undefined ? { turn: flags.turn } : {}),
      setInputs: parseKeyValues(flags.setInput, '--set-input'),
      vars: parseKeyValues(flags.var, '--var'),
      env: io.env,
      ...(flags.config ? { config: resolve(io.cwd, flags.config) } : {}),
      ...(flags.replay ? { replay: resolve(io.cwd, flags.replay) } : {}),
      ...storedRunHooks(io, Boolean(flags.json), seen, interrupt.signal),
      onForked: (id) => {
        childId = id;
        if (!flags.json) io.stdout.write(`run ${id} (forked from ${runId} at ${flags.at}${flags.turn !== undefined ? ` turn ${flags.turn}` : ''})\n`);
      },
      onNote: (message: string) => io.stderr.write(`note: ${message}\n`),
    };
    const report = await fork(request);
    return printRunReport(io, report, Boolean(flags.json), storeCommand(io, 'resume', report.runId, dbPath), storeCommand(io, 'inspect', report.runId, dbPath));
  } catch (error) {
    if (error instanceof SquadronError && error.code === 'not_found' && error.message.startsWith(`no run ${runId} in `)) throw noRunIn(io, runId, [dbPath]);
    if (error instanceof SquadronError && error.code === 'invalid_config') {
      await maskSecrets(io, seen.secrets());
      throw configErrors(io, error);
    }
    // Once stored, the fork is a run like any other: a crash from here on leaves it to resume.
    if (childId !== undefined && !(error instanceof SquadronError)) throw new CliError(`${error instanceof Error ? error.message : String(error)} (the fork ${childId} is stored: continue it with ${storeCommand(io, 'resume', childId, dbPath)})`, 'internal');
    throw error;
  } finally {
    interrupt.dispose();
  }
}
