// `squadron run <path>`: executes a mission and prints the run id first, then each task's result.

import { relative, resolve, join } from 'node:path';
import type { Command } from 'commander';
import type { Mission, MissionGraph } from '../../config/graph.js';
import type { RunOptions } from '../../runtime/run.js';
import { CliError, collect, EXIT, parseKeyValues, type CliIo } from '../io.js';
import { loadProject, selectMission } from '../project.js';
import { interruptOnSigint, printRunReport, runEnvironment } from '../runReport.js';
import { addSelectionFlags, selectionOverrides, type SelectionFlags } from '../selectionFlags.js';
import { DB_OPTION_HELP, runDbPath, storeCommand } from '../storeAccess.js';

interface RunFlags extends SelectionFlags {
  mission?: string;
  input: string[];
  var: string[];
  db?: string;
  json?: boolean;
  replay?: string;
  record?: string;
  workspace?: string;
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
    .option('--json', 'print one JSON document on stdout')
    .option('--replay <cassette>', 'play model responses back from a cassette instead of calling models')
    .option('--record <cassette>', 'record model traffic to a cassette (secrets redacted)')
    .option('--workspace <dir>', "directory for the file tools (default: .squadron/workspaces/<run-id>)");
  addSelectionFlags(command).action(async (path: string, flags: RunFlags) => {
      io.exitCode = await runCommand(io, path, flags);
    });
}

async function runCommand(io: CliIo, path: string, flags: RunFlags): Promise<number> {
  if (flags.replay && flags.record) throw new CliError('--replay and --record cannot be used together');
  // The config is checked first; the runtime (model SDKs, MCP, SQLite) loads only for a valid one.
  const project = loadProject(io, path, parseKeyValues(flags.var, '--var'));
  const [{ resolveInputs }, { startRun, RunRefused }] = await Promise.all([import('../../runtime/inputs.js'), import('../../runtime/run.js')]);
  const mission = selectMission(project.graph, flags.mission);
  const inputs = resolveInputs(mission, parseKeyValues(flags.input, '--input'));
  if (!inputs.ok) throw new CliError(inputs.errors.join('\n'));
  const overrides = selectionOverrides(project.graph, mission, flags);
  const dbPath = runDbPath(io, project.graph.projectRoot, flags.db);

  let runId = '';
  const options: Omit<RunOptions, 'workspaceDir' | 'taskGraph'> = { overrides };
  if (flags.replay) options.replay = resolve(io.cwd, flags.replay);
  if (flags.record) options.record = resolve(io.cwd, flags.record);
  announceReplay(io, project.graph, mission, options.replay);

  const interrupt = interruptOnSigint(io);
  try {
    const report = await startRun(runEnvironment(io, project, dbPath, interrupt.signal, Boolean(flags.json)), {
      mission,
      inputs: inputs.inputs,
      options,
      workspaceFor: (id) => (flags.workspace ? resolve(io.cwd, flags.workspace) : join(project.graph.projectRoot, '.squadron', 'workspaces', id)),
      onRunId: (id) => {
        runId = id;
        if (!flags.json) io.stdout.write(`run ${id}\n`);
      },
      onPreviousInterrupted: (id) => {
        io.stderr.write(`note: the last run of mission "${mission.name}" (${id}) was interrupted; resume it with: ${storeCommand(io, 'resume', id, dbPath)}\n`);
      },
    });
    return printRunReport(io, report, Boolean(flags.json), storeCommand(io, 'resume', runId, dbPath), storeCommand(io, 'inspect', runId, dbPath));
  } catch (error) {
    if (error instanceof RunRefused) throw new CliError(error.message, EXIT.usage);
    throw error;
  } finally {
    interrupt.dispose();
  }
}

function announceReplay(io: CliIo, graph: MissionGraph, mission: Mission, replay: string | undefined): void {
  if (replay) {
    io.stderr.write(`note: model responses are replayed from ${relative(io.cwd, replay)} — no model is called; tools, scheduling and storage run for real\n`);
    return;
  }
  const blocks = new Set([mission.commander.model.block, ...mission.tasks.flatMap((t) => (t.worker ? [t.worker.model.block] : []))]);
  for (const block of graph.models) {
    if (blocks.has(block.name) && block.provider === 'replay' && block.cassette) {
      io.stderr.write(`note: model "${block.name}" replays its responses from ${relative(io.cwd, block.cassette)} — no model is called; tools, scheduling and storage run for real\n`);
    }
  }
}

