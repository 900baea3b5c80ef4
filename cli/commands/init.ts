// `squadron init [dir]`: starts a project by copying a folder of examples/ into `dir` — the starter
// project by default (a model whose key is a secret variable, a toolset, a two-task mission and a
// README), for the provider `--provider` names (anthropic, the default; openai; gemini; ollama), or any
// example with `--example NAME`. Existing files are never overwritten: if one of
// the files is already there, nothing is written and the command is refused (exit 2). A folder made
// inside another project (a folder of this one with .hcl files or runs) is added to that project's
// .squadronignore, and the command says so: a config folder is loaded recursively, so the new files
// would otherwise join the project around them.

import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Option, type Command } from 'commander';
import { assetPath } from '../../core/assets.js';
import { closest } from '../../api/suggest.js';
import { IGNORE_FILE, SQUADRON_DIR } from '../../api/projectFiles.js';
import { CliError, EXIT, type CliIo } from '../io.js';
import { JSON_FLAG_HELP, writeJson } from '../json.js';
import { INIT_PROVIDER_NAMES, INIT_PROVIDERS, starterMission, starterReadme } from '../initProviders.js';

const STARTER = 'starter';

/** Folders an example may hold locally (runs, dependencies) that are never copied. */
const SKIPPED = new Set([SQUADRON_DIR, 'node_modules']);

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
  const name = example ?? STARTER;
  const source = exampleDir(name);
  const target = resolve(io.cwd, dir);
  if (existsSync(target) && !statSync(target).isDirectory()) throw new CliError(`${dir} exists and is not a directory`);
  const files = filesIn(source);
  const taken = files.filter((f) => existsSync(join(target, f)));
  if (taken.length > 0) {
    const shown = relative(io.cwd, join(target, taken[0]!)) || taken[0]!;
    const more = taken.length > 1 ? ` (and ${taken.length - 1} more)` : '';
    throw new CliError(`${shown} already exists${more}; init never overwrites files: choose a new or empty directory`);
  }
  const enclosing = enclosingProject(io.cwd, target);
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(join(source, file), join(target, file));
  }
  const provider = INIT_PROVIDERS[providerName];
  if (example === undefined && provider !== undefined) {
    for (const [file, rewrite] of [['mission.hcl', starterMission], ['README.md', starterReadme]] as const) {
      const path = join(target, file);
      if (existsSync(path)) writeFileSync(path, rewrite(readFileSync(path, 'utf8'), provider));
    }
  }
  const where = relative(io.cwd, target) || '.';
  const ignored = enclosing === undefined ? undefined : ignoreIn(enclosing, target);
  const next = [`squadron validate ${where}`, `squadron plan ${where}`, `squadron run ${where}`];
  if (json) {
    writeJson(io, {
      created: where,
      example: name,
      ...(example === undefined ? { provider: providerName } : {}),
      files,
      ...(ignored ? { ignored_in: relative(io.cwd, join(enclosing!, IGNORE_FILE)) || IGNORE_FILE, ignore_pattern: ignored } : {}),
      next,
    });
    return EXIT.ok;
  }
  const what = example === undefined ? `a starter project (${providerName})` : `the ${name} example`;
  io.stdout.write(`created ${what} in ${where}: ${files.join(', ')}\n`);
  if (ignored) {
    const project = relative(io.cwd, enclosing!) || '.';
    io.stdout.write(`${where} is inside the project in ${project}: added ${ignored} to ${join(project, IGNORE_FILE)}, so that project does not load it\n`);
  }
  const readme = files.includes('README.md') ? ` (see ${join(where, 'README.md')})` : '';
  io.stdout.write(`next: ${next[0]}, then ${next[1]} and ${next[2]}${readme}\n`);
  return EXIT.ok;
}

/**
 * The project `target` would join: the nearest folder above it, up to the current one, that holds
 * .hcl files or a project's .squadron folder. Only folders at or below the current one are
 * considered: init never writes above where it was started.
 */
function enclosingProject(cwd: string, target: string): string | undefined {
  if (target === cwd || !target.startsWith(cwd === sep ? cwd : `${cwd}${sep}`)) return undefined;
  for (let dir = dirname(target); ; dir = dirname(dir)) {
    if (isProject(dir)) return dir;
    if (dir === cwd || dir === dirname(dir)) return undefined;
  }
}

function isProject(dir: string): boolean {
  try {
    return existsSync(join(dir, SQUADRON_DIR)) || readdirSync(dir, { withFileTypes: true }).some((e) => e.isFile() && e.name.endsWith('.hcl'));
  } catch {
    return false;
  }
}

/** Adds `/sub/dir/` to the project's .squadronignore (unless a line already says so); the pattern written. */
function ignoreIn(project: string, target: string): string {
  const pattern = `/${relative(project, target).split(sep).join('/')}/`;
  const file = join(project, IGNORE_FILE);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (!text.split(/\r?\n/).some((l) => l.trim() === pattern)) {
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    appendFileSync(file, `${sep}${text === '' ? '# Folders made by squadron init inside this project (each a project of its own)\n' : ''}${pattern}\n`);
  }
  return pattern;
}

/** examples/<name>; an unknown name is a usage error listing the examples. */
function exampleDir(name: string): string {
  const names = readdirSync(assetPath('examples'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  if (!names.includes(name)) {
    const near = closest(name, names);
    const hint = near === undefined ? '' : `did you mean ${near}? `;
    throw new CliError(`unknown example "${name}". ${hint}Examples: ${names.join(', ')}`, 'not_found');
  }
  return assetPath('examples', name);
}

/** Every file under `root`, as paths relative to it, in a stable order. */
function filesIn(root: string, sub = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, sub), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIPPED.has(entry.name)) continue;
    const rel = sub === '' ? entry.name : join(sub, entry.name);
    if (entry.isDirectory()) out.push(...filesIn(root, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}
