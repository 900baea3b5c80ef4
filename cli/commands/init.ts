// `squadron init [dir]`: starts a project by copying a folder of examples/ into `dir` — the starter
// project by default (a model whose key is a secret variable, a toolset, a two-task mission and a
// README), for the provider `--provider` names (anthropic, the default; openai; gemini; ollama), or any
// example with `--example NAME`. Existing files are never overwritten: if one of
// the files is already there, nothing is written and the command is refused (exit 2). A folder made
// inside another project (a folder of this one with .hcl files or runs) is added to that project's
// .squadronignore, and the command says so: a config folder is loaded recursively, so the new files
// would otherwise join the project around them.

import { join, relative } from 'node:path';
import { Option, type Command } from 'commander';
import { IGNORE_FILE } from '../../api/projectFiles.js';
import { INIT_PROVIDER_NAMES, initProject } from '../../api/init.js';
import { CliError, EXIT, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('init')
    .description('Create a starter project (or copy an example) in a directory')
    .argument('[dir]', 'where to create it (made if missing)', '.')
    .option('--example <name>', 'copy one of the examples instead of the starter project')
    .addOption(new Option('--provider <name>', 'the starter project\'s model provider').choices(INIT_PROVIDER_NAMES).default('anthropic'))
    .option('--json', JSON_FLAG_HELP)
    .action((dir: string, opts: { example?: string; provider: string; json?: boolean }, command: Command) => {
      if (opts.example !== undefined && command.getOptionValueSource('provider') === 'cli') {
        throw new CliError('--provider chooses the starter project\'s model; an example keeps its own (use one or the other)');
      }
      io.exitCode = init(dir, opts.example, opts.provider, io, Boolean(opts.json));
    });
}

function init(dir: string, example: string | undefined, providerName: string, io: CliIo, json: boolean): number {
  const made = initProject({ dir, ...(example !== undefined ? { example } : {}), provider: providerName, cwd: io.cwd });
  const { files } = made;
  const where = relative(io.cwd, made.dir) || '.';
  const ignored = made.ignoredIn?.pattern;
  const next = [`squadron validate ${where}`, `squadron plan ${where}`, `squadron run ${where}`];
  if (json) {
    writeJson(io, {
      created: where,
      example: made.example,
      ...(example === undefined ? { provider: providerName } : {}),
      files,
      ...(made.ignoredIn ? { ignored_in: relative(io.cwd, made.ignoredIn.file) || IGNORE_FILE, ignore_pattern: made.ignoredIn.pattern } : {}),
      next,
    });
    return EXIT.ok;
  }
  const what = example === undefined ? `a starter project (${providerName})` : `the ${made.example} example`;
  io.stdout.write(`created ${what} in ${where}: ${files.join(', ')}\n`);
  if (made.ignoredIn) {
    const project = relative(io.cwd, made.ignoredIn.project) || '.';
    io.stdout.write(`${where} is inside the project in ${project}: added ${ignored} to ${join(project, IGNORE_FILE)}, so that project does not load it\n`);
  }
  const readme = files.includes('README.md') ? ` (see ${join(where, 'README.md')})` : '';
  io.stdout.write(`next: ${next[0]}, then ${next[1]} and ${next[2]}${readme}\n`);
  return EXIT.ok;
}
