// `squadron init [dir]`: starts a project by copying a folder of examples/ into `dir` — the starter
// project by default (a model whose key is a secret variable, a toolset, a two-task mission and a
// README), or any example with `--example NAME`. Existing files are never overwritten: if one of
// the files is already there, nothing is written and the command is refused (exit 2).

import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { assetPath } from '../../core/assets.js';
import { closest } from '../../config/suggest.js';
import { SQUADRON_DIR } from '../../config/projectLayout.js';
import { CliError, EXIT, type CliIo } from '../io.js';
import { STARTER_PROVIDERS, starterFor, type StarterProvider } from '../starterProvider.js';

const STARTER = 'starter';

/** Folders an example may hold locally (runs, dependencies) that are never copied. */
const SKIPPED = new Set([SQUADRON_DIR, 'node_modules']);

export function register(program: Command, io: CliIo): void {
  program
    .command('init')
    .description('Create a starter project (or copy an example) in a directory')
    .argument('[dir]', 'where to create it (made if missing)', '.')
    .option('--example <name>', 'copy one of the examples instead of the starter project')
    .option('--provider <name>', `the starter project's model provider: ${STARTER_PROVIDERS.map((p) => p.name).join(', ')} (default anthropic)`)
    .action((dir: string, opts: { example?: string; provider?: string }) => {
      io.exitCode = init(dir, opts.example, io, starterProvider(opts.provider, opts.example));
    });
}

/** The provider named by --provider (only for the starter project); a usage error otherwise. */
function starterProvider(name: string | undefined, example: string | undefined): StarterProvider | undefined {
  if (name === undefined) return undefined;
  if (example !== undefined) throw new CliError('--provider applies to the starter project, not to --example (an example keeps its own model)');
  const found = STARTER_PROVIDERS.find((p) => p.name === name);
  if (!found) {
    const names = STARTER_PROVIDERS.map((p) => p.name);
    const near = closest(name, names);
    throw new CliError(`unknown provider "${name}". ${near === undefined ? '' : `did you mean ${near}? `}Providers: ${names.join(', ')}`);
  }
  return found;
}

function init(dir: string, example: string | undefined, io: CliIo, provider?: StarterProvider): number {
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
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    if (provider === undefined) copyFileSync(join(source, file), join(target, file));
    else writeFileSync(join(target, file), starterFor(readFileSync(join(source, file), 'utf8'), provider));
  }
  const where = relative(io.cwd, target) || '.';
  const what = example === undefined ? `a starter project${provider ? ` (${provider.label})` : ''}` : `the ${name} example`;
  io.stdout.write(`created ${what} in ${where}: ${files.join(', ')}\n`);
  const readme = files.includes('README.md') ? ` (see ${join(where, 'README.md')})` : '';
  io.stdout.write(`next: squadron validate ${where}, then squadron plan ${where} and squadron run ${where}${readme}\n`);
  return EXIT.ok;
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
