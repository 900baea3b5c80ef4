// Starting a project (`squadron init`): copies a folder of examples/ into a directory — the starter
// project by default, rewritten for the provider asked for (anthropic, openai, gemini, ollama), or any
// example. Existing files are never overwritten: if one of the files is already there, nothing is
// written and the call is refused (`usage`). A folder made inside another project (a folder with .hcl
// files or runs, at or below `cwd`) is added to that project's .squadronignore: a config folder is
// loaded recursively, so the new files would otherwise join the project around them.

import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { IGNORE_FILE } from '../config/ignoreFile.js';
import { SQUADRON_DIR } from '../config/projectLayout.js';
import { closest } from '../config/suggest.js';
import { assetPath } from '../core/assets.js';
import { SquadronError } from './errors.js';
import { INIT_PROVIDERS, starterMission, starterReadme } from './initProviders.js';

export { INIT_PROVIDER_NAMES } from './initProviders.js';

const STARTER = 'starter';

/** Folders an example may hold locally (runs, dependencies) that are never copied. */
const SKIPPED = new Set([SQUADRON_DIR, 'node_modules']);

export interface InitRequest {
  /** Where to create the project (made if missing). */
  dir: string;
  /** An example to copy instead of the starter project. */
  example?: string;
  /** The starter project's model provider (default anthropic); an example keeps its own. */
  provider?: string;
  /** The folder the caller works in: init never writes above it, and paths in messages are shown from it. */
  cwd: string;
}

export interface InitResult {
  /** The project's folder (absolute). */
  dir: string;
  /** `starter` or the example copied. */
  example: string;
  /** The files written, relative to `dir`, in a stable order. */
  files: string[];
  /** When `dir` is inside another project: that project's folder and the line added to its .squadronignore. */
  ignoredIn?: { project: string; file: string; pattern: string };
}

/** Creates the project; a SquadronError (`usage`, `not_found`) when it cannot without overwriting or guessing. */
export function initProject(req: InitRequest): InitResult {
  const name = req.example ?? STARTER;
  const source = exampleDir(name);
  const target = resolve(req.cwd, req.dir);
  if (existsSync(target) && !statSync(target).isDirectory()) throw new SquadronError('usage', `${req.dir} exists and is not a directory`);
  const files = filesIn(source);
  const taken = files.filter((f) => existsSync(join(target, f)));
  if (taken.length > 0) {
    const shown = relative(req.cwd, join(target, taken[0]!)) || taken[0]!;
    const more = taken.length > 1 ? ` (and ${taken.length - 1} more)` : '';
    throw new SquadronError('usage', `${shown} already exists${more}; init never overwrites files: choose a new or empty directory`);
  }
  const enclosing = enclosingProject(req.cwd, target);
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(join(source, file), join(target, file));
  }
  const provider = INIT_PROVIDERS[req.provider ?? 'anthropic'];
  if (req.example === undefined && provider !== undefined) {
    for (const [file, rewrite] of [['mission.hcl', starterMission], ['README.md', starterReadme]] as const) {
      const path = join(target, file);
      if (existsSync(path)) writeFileSync(path, rewrite(readFileSync(path, 'utf8'), provider));
    }
  }
  const result: InitResult = { dir: target, example: name, files };
  if (enclosing !== undefined) result.ignoredIn = { project: enclosing, file: join(enclosing, IGNORE_FILE), pattern: ignoreIn(enclosing, target) };
  return result;
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
    throw new SquadronError('not_found', `unknown example "${name}". ${hint}Examples: ${names.join(', ')}`);
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
