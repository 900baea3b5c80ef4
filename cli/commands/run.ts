// `squadron run <path>`: executes a mission and prints the run id first, then each task's result.

import { promptIfTerminal } from '../operatorPrompt.js';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError, collect, parseKeyValues, type CliIo } from '../io.js';
import { isPostgresUrl } from '../../api/database.js';
import { JSON_FLAG_HELP } from '../json.js';
import { loadProject } from '../project.js';
import { interruptOnSigint, printRunReport, progressFor } from '../runReport.js';
import { addSelectionFlags, selectionOf, type SelectionFlags } from '../selectionFlags.js';
import { DB_OPTION_HELP, runDbPath, shownPath, storeCommand } from '../databaseAccess.js';
import type { RunSpec } from '../../api/index.js';

interface RunFlags extends SelectionFlags {
  mission?: string;
  input: string[];
  var: string[];
  db?: string;
  json?: boolean;
  replay?: string;
  record?: string;
  workspace?: string;
  detach?: boolean;
}

export function register(program: Command, io: CliIo): void {
  const command = program
    .command('run')
    .description('Run a mission')
    .argument('<path>', 'an .hcl file or a directory of them')
    .option('-m, --mission <name>', 'the mission to run (optional when the config has one)')
    .option('-i, --input <key=value>', 'a mission input (repeatable)', collect, [])
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .option('--db <path>', DB_OPTION_HELP)
    .option('--json', JSON_FLAG_HELP)
    .option('--replay <cassette>', 'play model responses back from a cassette instead of calling models')
    .option('--record <cassette>', 'record model traffic to a cassette (secrets redacted)')
    .option('--workspace <dir>', "directory for the file tools (default: .squadron/workspaces/<run-id>)")
    .option('--detach', 'PostgreSQL only: store and queue the run for `squadron worker` processes, print its id and return');
  addSelectionFlags(command).action(async (path: string, flags: RunFlags) => {
      io.exitCode = await runCommand(io, path, flags);
    });
}

async function runCommand(io: CliIo, path: string, flags: RunFlags): Promise<number> {
  // The config is checked first; the runtime (model SDKs, MCP, SQLite) loads only for a valid one.
  const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'));
  const { resolveRun } = await import('../../api/index.js');
  // The mission is selected, its inputs converted and every path made absolute once, here: what
  // follows (the notes, the run or its queueing) reads this one specification.
  const spec = await resolveRun({
    config: project,
    ...(flags.mission ? { mission: flags.mission } : {}),
    inputs: parseKeyValues(flags.input, '--input'),
    selection: selectionOf(flags),
    db: runDbPath(io, project.graph.projectRoot, flags.db, project.graph.storage),
    ...(flags.workspace ? { workspace: resolve(io.cwd, flags.workspace) } : {}),
    ...(flags.replay ? { replay: resolve(io.cwd, flags.replay) } : {}),
    ...(flags.record ? { record: resolve(io.cwd, flags.record) } : {}),
  });
  announceReplay(io, spec);
  if (flags.detach) return detachCommand(io, spec, flags);
  const { run } = await import('../../api/index.js');
  let runId = '';
  const interrupt = interruptOnSigint(io);
  try {
    const report = await run(spec, {
      env: io.env,
      signal: interrupt.signal,
      watch: progressFor(io, Boolean(flags.json)),
      ...promptIfTerminal(io),
      onRunId: (id) => {
        runId = id;
        if (!flags.json) io.stdout.write(`run ${id}\n`);
      },
      onPreviousInterrupted: (id) => {
        io.stderr.write(`note: the last run of mission "${spec.mission.name}" (${id}) was interrupted; resume it with: ${storeCommand(io, 'resume', id, spec.db)}\n`);
      },
    });
    return printRunReport(io, report, Boolean(flags.json), storeCommand(io, 'resume', runId, spec.db), storeCommand(io, 'inspect', runId, spec.db));
  } finally {
    interrupt.dispose();
  }
}

/** `run --detach`: stores and queues the run, prints its id (or its JSON document) and returns. */
async function detachCommand(io: CliIo, spec: RunSpec, flags: RunFlags): Promise<number> {
  if (!isPostgresUrl(spec.db)) {
    throw new CliError(`--detach needs a PostgreSQL database (--db postgres://… or SQUADRON_DATABASE_URL): a run queued in the SQLite file ${shownPath(io, spec.db)} would have no worker to take it; run it without --detach`, 'usage');
  }
  const { enqueue } = await import('../../api/index.js');
  const runId = await enqueue(spec, { env: io.env });
  if (flags.json) io.stdout.write(`${JSON.stringify({ run_id: runId, status: 'queued' }, null, 2)}\n`);
  else io.stdout.write(`run ${runId}\nqueued for the workers of ${shownPath(io, spec.db)} (squadron worker); follow it with: ${storeCommand(io, 'logs', runId, spec.db)} -f\n`);
  return 0;
}

function announceReplay(io: CliIo, spec: RunSpec): void {
  const replay = spec.options.replay;
  if (replay) {
    io.stderr.write(`note: model responses are replayed from ${relative(io.cwd, replay)} — no model is called; tools, scheduling and storage run for real\n`);
    return;
  }
  const mission = spec.mission;
  const blocks = new Set([mission.commander.model.block, ...mission.tasks.flatMap((t) => (t.worker ? [t.worker.model.block] : []))]);
  for (const block of spec.project.graph.models) {
    if (blocks.has(block.name) && block.provider === 'replay' && block.cassette) {
      io.stderr.write(`note: model "${block.name}" replays its responses from ${relative(io.cwd, block.cassette)} — no model is called; tools, scheduling and storage run for real\n`);
    }
  }
}
