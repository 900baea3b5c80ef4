// Finding and parsing the config files: a single file, or every `*.hcl` below a directory
// (recursively, sorted by path so every machine loads in the same order). Dot-folders, node_modules
// and the paths named in the root's optional `.squadronignore` are skipped, and the skips are
// reported so a user sees where the loaded files came from.

import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { File } from './hcl/ast.js';
import type { Diagnostic } from './hcl/diagnostic.js';
import { parseHclDeferred } from './hcl/index.js';
import { readIgnoreFile, type IgnoreRules } from './ignoreFile.js';
import { readTextFile } from './textFile.js';

/** A folder (or file) below the root that was not loaded, and why. */
export interface SkippedPath {
  /** Relative to the project root, `/`-separated. */
  path: string;
  reason: 'dot-folder' | 'node_modules' | 'squadronignore';
}

export interface DiscoveredFiles {
  projectRoot: string;
  files: string[];
  /** What a directory walk left out (empty for a single file). */
  skipped: SkippedPath[];
  diagnostics: Diagnostic[];
}

function pathProblem(path: string, code: string, message: string, hint?: string): Diagnostic {
  const d: Diagnostic = { severity: 'error', code, message, file: path, line: 0, column: 0, endLine: 0, endColumn: 0 };
  if (hint !== undefined) d.hint = hint;
  return d;
}

export function discoverFiles(path: string): DiscoveredFiles {
  const full = resolve(path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return { projectRoot: full, files: [], skipped: [], diagnostics: [pathProblem(full, 'FIL001', `config path ${path} does not exist`, 'pass a .hcl file or a directory that contains .hcl files')] };
  }
  if (stat.isFile()) return { projectRoot: dirname(full), files: [full], skipped: [], diagnostics: [] };
  if (!stat.isDirectory()) {
    // /dev/null, a FIFO, a socket: reading one would block or yield nothing useful.
    return { projectRoot: full, files: [], skipped: [], diagnostics: [pathProblem(full, 'FIL004', `config path ${path} is not a regular file or a directory`, 'pass a .hcl file or a directory that contains .hcl files')] };
  }
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const ignore = readIgnoreFile(full, diagnostics);
  const walker: Walker = { root: full, ignore, out: files, skipped: [], problems: diagnostics, seen: new Set() };
  walk(walker, full);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  walker.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.length === 0 && diagnostics.length === 0) {
    diagnostics.push(pathProblem(full, 'FIL005', `no .hcl files found in ${path}`, 'add a file such as mission.hcl (folders whose name starts with ".", node_modules and the paths in .squadronignore are skipped)'));
  }
  return { projectRoot: full, files, skipped: walker.skipped, diagnostics };
}

interface Walker {
  root: string;
  ignore: IgnoreRules;
  out: string[];
  skipped: SkippedPath[];
  problems: Diagnostic[];
  seen: Set<string>;
}

function skipReason(w: Walker, rel: string, name: string, isDir: boolean): SkippedPath['reason'] | undefined {
  if (isDir && name.startsWith('.')) return 'dot-folder';
  if (isDir && name === 'node_modules') return 'node_modules';
  return w.ignore.ignores(rel, isDir) ? 'squadronignore' : undefined;
}

function walk(w: Walker, dir: string): void {
  const { out, problems, seen } = w;
  let entries;
  try {
    // Symlinked folders are followed once (realpath), so a link cycle cannot loop forever.
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    problems.push(pathProblem(dir, 'FIL004', `cannot read the folder ${dir}: ${(err as Error).message}`));
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const target = statSync(path);
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch {
        continue; // a dangling link is not a config file
      }
    }
    // A `*.sqtest.hcl` file is a test of the config (squadron test), not part of it.
    if (!isDir && !(isFile && entry.name.endsWith('.hcl') && !entry.name.endsWith(TEST_FILE_SUFFIX))) continue;
    const rel = relative(w.root, path).split(sep).join('/');
    const reason = skipReason(w, rel, entry.name, isDir);
    if (reason !== undefined) {
      w.skipped.push({ path: rel, reason });
      continue;
    }
    if (isDir) walk(w, path);
    else out.push(path);
  }
}

/** The ending of a test file of `squadron test`, which the config loader leaves out. */
export const TEST_FILE_SUFFIX = '.sqtest.hcl';

export interface ParsedFiles {
  files: Map<string, File>;
  diagnostics: Diagnostic[];
}

export function parseFiles(paths: readonly string[]): ParsedFiles {
  const files = new Map<string, File>();
  const diagnostics: Diagnostic[] = [];
  for (const path of paths) {
    const read = readHclFile(path);
    if ('problem' in read) {
      diagnostics.push(read.problem);
      continue;
    }
    const parsed = parseHclDeferred(read.text, path);
    diagnostics.push(...parsed.diagnostics);
    files.set(path, parsed.file);
  }
  return { files, diagnostics };
}

/** A .hcl file's text, or why it cannot be read (not a regular file, not UTF-8, …) as a diagnostic. */
export function readHclFile(path: string): { text: string } | { problem: Diagnostic } {
  const read = readTextFile(path);
  if (read.ok) return { text: read.text };
  return {
    problem:
      read.problem === 'not-utf8'
        ? pathProblem(path, 'FIL008', `${path} ${read.message}; it is skipped`, 'config files are UTF-8 text; is this a binary file with a .hcl name?')
        : pathProblem(path, 'FIL004', `${path} ${read.message}`),
  };
}
