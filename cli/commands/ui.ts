// `squadron ui [path]`: the web console over the project's database, in the foreground; it prints a
// login URL that works once (the session it opens is an HTTP-only cookie). See docs/console.md.

import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import { loadProject, printWarnings } from '../project.js';
import { DB_OPTION_HELP, runDbPath } from '../databaseAccess.js';

interface UiFlags {
  port: string;
  host: string;
  db?: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('ui')
    .description('Open the web console: runs, task graphs, transcripts, approvals (see `squadron docs console`)')
    .argument('[path]', 'the config file or folder', '.')
    .option('--port <n>', 'the port to listen on (0: any free port)', '7071')
    .option('--host <address>', 'the address to listen on (another than 127.0.0.1 exposes the console to the network)', '127.0.0.1')
    .option('--db <path>', DB_OPTION_HELP)
    .action(async (path: string, flags: UiFlags) => {
      io.exitCode = await uiCommand(io, path, flags);
    });
}

async function uiCommand(io: CliIo, path: string, flags: UiFlags): Promise<number> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port expects a port number (0–65535), not "${flags.port}"`, 'usage');
  const project = await loadProject(io, path, {});
  printWarnings(io, project);
  const db = runDbPath(io, project.graph.projectRoot, flags.db);
  const { serve } = await import('../../server/index.js');
  return serve({ project, db, host: flags.host, port, env: io.env, stdout: io.stdout, stderr: io.stderr, drainMs: 10_000, recoverEveryMs: 60_000, maxRuns: 16, ui: true });
}
