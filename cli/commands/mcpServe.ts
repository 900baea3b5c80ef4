// `squadron mcp serve [path]`: the project's missions as MCP tools over stdio, for a desktop client
// or an editor that starts the process (Claude Desktop, Cursor, Codex). Runs are stored in the
// project's database as with `squadron run`, continue when the client waits, and are found again by
// id after either side restarts; see docs/mcp-server.md.

import type { Command } from 'commander';
import { CliError, collect, parseKeyValues, type CliIo } from '../io.js';
import { loadProject, printWarnings } from '../project.js';
import { DB_OPTION_HELP, runDbPath } from '../databaseAccess.js';

interface McpServeFlags {
  db?: string;
  wait: string;
  var: string[];
}

export function registerMcpServe(mcp: Command, io: CliIo): void {
  mcp
    .command('serve')
    .description("Serve the missions as MCP tools over stdio (for Claude Desktop and editors; over HTTP, `squadron serve` answers at /mcp)")
    .argument('[path]', 'an .hcl file or a directory of them', '.')
    .option('--db <path>', DB_OPTION_HELP)
    .option('--wait <seconds>', 'how long a tool call without a task waits for its run before answering with the run id', '60')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(async (path: string, flags: McpServeFlags) => {
      const wait = Number(flags.wait);
      if (!Number.isFinite(wait) || wait < 0) throw new CliError(`--wait expects seconds, not "${flags.wait}"`, 'usage');
      const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'));
      printWarnings(io, project);
      const db = runDbPath(io, project.graph.projectRoot, flags.db);
      const [{ openRunStore, recoverableRuns }, { Runner }, { createLog }, { serveStdio }, { VERSION }] = await Promise.all([
        import('../../api/index.js'),
        import('../../server/runner.js'),
        import('../../server/log.js'),
        import('../../mcpserver/stdio.js'),
        import('../program.js'),
      ]);
      const store = await openRunStore(db);
      const log = createLog(io.stderr);
      const runner = new Runner({ db, env: io.env, log });
      // Runs a previous `mcp serve` left when it was killed continue here, as under `squadron serve`.
      for (const id of await recoverableRuns(store)) await runner.resume(id, { reason: 'recovered after a crash' }).catch(() => undefined);
      // The MCP messages go on the process's own stdout: the CLI's stdout sanitises terminal text.
      await serveStdio({ store, project: () => project, runs: runner, who: 'mcp:stdio', waitMs: wait * 1000 }, VERSION, { stdin: process.stdin, stdout: process.stdout });
      const left = await runner.drain(10_000);
      if (left === 0) await store.close();
      log('info', 'stopped', { runs_left_to_resume: left });
    });
}
