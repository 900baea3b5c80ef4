// `squadron serve [path]`: the HTTP API (runs, approvals, live events) over the project's database,
// in the foreground until SIGTERM; see docs/commands/serve.md.

import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import { loadProject, printWarnings } from '../project.js';
import { DB_OPTION_HELP, runDbPath } from '../databaseAccess.js';

/** Runs wait on their model most of the time: a few dozen at once keep a core busy without crowding it. */
const DEFAULT_MAX_RUNS = 16;

interface ServeFlags {
  port: string;
  host: string;
  db?: string;
  drainTimeout: string;
  maxRuns: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('Serve the HTTP API: start, follow and decide runs; resume crashed runs (see `squadron docs serve`)')
    .argument('[path]', 'the config file or folder', '.')
    .option('--port <n>', 'the port to listen on (0: any free port; the address is printed)', '7070')
    .option('--host <address>', 'the address to listen on (another than 127.0.0.1 exposes the API to the network)', '127.0.0.1')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--max-runs <n>', 'how many runs this server drives at once; further starts (webhook deliveries, schedules, API) wait their turn', String(DEFAULT_MAX_RUNS))
    .option('--drain-timeout <seconds>', 'on SIGTERM, how long to wait for runs in flight before leaving them to resume', '10')
    .action(async (path: string, flags: ServeFlags) => {
      io.exitCode = await serveCommand(io, path, flags);
    });
}

async function serveCommand(io: CliIo, path: string, flags: ServeFlags): Promise<number> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port expects a port number (0–65535), not "${flags.port}"`, 'usage');
  const drain = Number(flags.drainTimeout);
  if (!Number.isFinite(drain) || drain < 0) throw new CliError(`--drain-timeout expects seconds, not "${flags.drainTimeout}"`, 'usage');
  const maxRuns = Number(flags.maxRuns);
  if (!Number.isInteger(maxRuns) || maxRuns < 1) throw new CliError(`--max-runs expects a whole number of at least 1, not "${flags.maxRuns}"`, 'usage');
  const project = await loadProject(io, path, {});
  printWarnings(io, project);
  const db = runDbPath(io, project.graph.projectRoot, flags.db);
  const recoverMs = Number(io.env['SQUADRON_SERVE_RECOVER_MS'] ?? '5000');
  const { serve } = await import('../../server/index.js');
  return serve({
    project,
    db,
    host: flags.host,
    port,
    env: io.env,
    stdout: io.stdout,
    stderr: io.stderr,
    drainMs: drain * 1000,
    maxRuns,
    recoverEveryMs: Number.isFinite(recoverMs) && recoverMs > 0 ? recoverMs : 5000,
  });
}
