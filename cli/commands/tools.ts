// `squadron tools <path>`: a task's authorized tools with their provenance, or — with --search — the
// exact ranked page the worker's search_tools would return for a query.

import type { Command } from 'commander';
import { collect, parseKeyValues, positiveInt, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { loadProject } from '../project.js';
import { table } from '../table.js';

interface ToolsFlags {
  mission?: string;
  task?: string;
  search?: string;
  group?: string;
  page: number;
  var: string[];
  json?: boolean;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('tools')
    .description("List a task's authorized tools with provenance, or run the worker's tool search")
    .argument('<path>', 'an .hcl file or a directory of them')
    .option('-m, --mission <name>', 'the mission (optional when the config has one)')
    .option('-t, --task <name>', 'the task (optional when one task declares tools)')
    .option('-s, --search <query>', "rank the task's tools for this query, as search_tools does")
    .option('-g, --group <name>', 'with --search: only this group')
    .option('--page <n>', 'with --search: the page (8 results each)', positiveInt('--page'), 1)
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .option('--json', JSON_FLAG_HELP)
    .action(async (path: string, flags: ToolsFlags) => {
      // The config is checked before the runtime is loaded, so a mistake is reported at once.
      // Listing and searching call no tool: the secrets are not needed (an MCP server that needs one is reported unavailable).
      const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'), { unsetVariables: 'unknown' });
      const { taskTools } = await import('../../api/tools.js');
      const listing = await taskTools({
        config: project,
        ...(flags.mission ? { mission: flags.mission } : {}),
        ...(flags.task ? { task: flags.task } : {}),
        onWarning: (message) => io.stderr.write(`warning: ${message}\n`),
      });
      if (flags.search !== undefined) {
        const page = listing.search(flags.search, flags.group, flags.page);
        if (flags.json) {
          writeJson(io, { query: flags.search, ...(flags.group ? { group: flags.group } : {}), results: page.results, total: page.total, ...(page.nextPage !== undefined ? { next_page: page.nextPage } : {}) });
        } else if (page.results.length === 0) {
          io.stdout.write(`no tools of task ${listing.task} match "${flags.search}"\n`);
        } else {
          io.stdout.write(table(['#', 'NAME', 'GROUP', 'SCORE', 'DESCRIPTION'], page.results.map((r, i) => [String((flags.page - 1) * listing.pageSize + i + 1), r.name, r.group, r.score.toFixed(2), r.description])));
          io.stdout.write(`${page.total} match${page.total === 1 ? '' : 'es'}${page.nextPage ? ` · next page: --page ${page.nextPage}` : ''}\n`);
        }
        return;
      }
      if (flags.json) {
        writeJson(io, { task: listing.task, tools: listing.tools });
        return;
      }
      io.stdout.write(`task ${listing.task}: ${listing.tools.length} authorized tool${listing.tools.length === 1 ? '' : 's'}\n`);
      io.stdout.write(table(['NAME', 'GROUP', 'VIA', 'DESCRIPTION'], listing.tools.map((t) => [t.name, t.group, t.via, listing.oneLine(t.description)])));
    });
}
