// `squadron graph <path>`: a mission's task graph — depends_on, router routes with their conditions,
// send_to — as Graphviz DOT (default), Mermaid, or JSON. Reads the config only; nothing runs.

import { Option, type Command } from 'commander';
import { missionTaskGraph } from '../../api/graph.js';
import { collect, parseKeyValues, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { loadProject } from '../project.js';
import { toDot, toMermaid } from '../taskGraphText.js';

interface GraphFlags {
  mission?: string;
  format: 'dot' | 'mermaid' | 'json';
  json?: boolean;
  var: string[];
}

export function register(program: Command, io: CliIo): void {
  program
    .command('graph')
    .description("Print a mission's task graph (dependencies, routes with conditions, send_to) as DOT or Mermaid")
    .argument('<path>', 'an .hcl file or a directory of them')
    .option('-m, --mission <name>', 'the mission (optional when the config has one)')
    .addOption(new Option('--format <format>', 'dot (Graphviz), mermaid, or json').choices(['dot', 'mermaid', 'json']).default('dot'))
    .option('--json', `${JSON_FLAG_HELP}; the same as --format json`)
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .action(async (path: string, flags: GraphFlags) => {
      // No model is called: a variable without a value is a warning, as for plan.
      const project = await loadProject(io, path, parseKeyValues(flags.var, '--var'), { unsetVariables: 'unknown' });
      const graph = missionTaskGraph(project, flags.mission);
      if (flags.json === true || flags.format === 'json') writeJson(io, { ...graph });
      else io.stdout.write(flags.format === 'mermaid' ? toMermaid(graph) : toDot(graph));
    });
}
