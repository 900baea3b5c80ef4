// `squadron ui [path]`: the web console over the project's database, in the foreground; it prints a
// login URL that works once (the session it opens is an HTTP-only cookie). `--db` without a path,
// where no config is, attaches to that database alone. See docs/concepts/console.md.

import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import { detachedProject, holdsConfig } from '../../api/project.js';
import { loadProject } from '../project.js';
import { DB_OPTION_HELP, namedDatabase, runDbPath } from '../databaseAccess.js';

interface UiFlags {
  port: string;
  host: string;
  db?: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('ui')
    .description('Open the web console: runs, task graphs, transcripts, approvals (see `squadron docs console`)')
    .argument('[path]', 'the config file or folder (default: the current folder; with --db and no config here, none)')
    .option('--port <n>', 'the port to listen on (0: any free port)', '7071')
    .option('--host <address>', 'the address to listen on (another than 127.0.0.1 exposes the console to the network)', '127.0.0.1')
    .option('--db <path>', DB_OPTION_HELP)
    .action(async (path: string | undefined, flags: UiFlags) => {
      io.exitCode = await uiCommand(io, path, flags);
    });
}

async function uiCommand(io: CliIo, path: string | undefined, flags: UiFlags): Promise<number> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port expects a port number (0–65535), not "${flags.port}"`, 'usage');
  // A database named and no config asked for nor here: the console of that database alone.
  const named = flags.db;
  const alone = path === undefined && named !== undefined && !holdsConfig(io.cwd);
  const project = alone ? detachedProject(io.cwd) : await loadProject(io, path ?? '.', {});
  // Alone, a mistyped --db is said so, not made into a new empty database.
  const db = alone ? namedDatabase(io, named) : runDbPath(io, project.graph.projectRoot, flags.db);
  if (alone) io.stderr.write('note: no config here: showing the database alone (no schedules or triggers)\n');
  const { serve } = await import('../../server/index.js');
  return serve({ project, db, host: flags.host, port, env: io.env, stdout: io.stdout, stderr: io.stderr, drainMs: 10_000, recoverEveryMs: 60_000, maxRuns: 16, ui: true });
}
