// The `load("file.md")` function: the contents of a text file next to the config, so long prompts
// and instructions can live in Markdown. Only .md and .txt, relative to the declaring file's
// directory, never outside the project root (links included), at most 1 MiB of UTF-8 text.
// Problems are reported at the argument itself.

import { realpathSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve } from 'node:path';
import { diagnosticAt, type Diagnostic } from './hcl/diagnostic.js';
import { unknown, type HclFunction } from './hcl/value.js';
import { readTextFile, type TextFileProblem } from './textFile.js';

/** Whether `path` is `root` itself or inside it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** load() reads at most this much: a prompt, not a data set (and never a runaway file). */
export const LOAD_MAX_BYTES = 1024 * 1024;

/** The real path of `path` (symlinks resolved), or undefined when it cannot be resolved. */
function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const PROBLEM_CODES: Readonly<Record<TextFileProblem, string>> = {
  missing: 'FIL001',
  'not-a-file': 'FIL004',
  unreadable: 'FIL004',
  'not-utf8': 'FIL008',
  'too-large': 'FIL009',
};

/**
 * Builds `load` for one config load. Errors go to `diags` with our own codes, and the call yields
 * an unknown value so the evaluator adds nothing of its own. Files read are added to `sources`.
 */
export function makeLoadFunction(projectRoot: string, diags: Diagnostic[], sources?: Map<string, string>): HclFunction {
  // A link inside the project may lead out of it: containment is judged on real paths.
  const realRoot = realPath(projectRoot) ?? projectRoot;
  return {
    minArgs: 1,
    maxArgs: 1,
    call(args, ctx) {
      const at = ctx.argRanges[0] ?? ctx.range;
      const arg = args[0];
      if (typeof arg !== 'string') {
        diags.push(diagnosticAt(at, 'error', 'SCH007', 'load() takes a file path string', 'write load("instructions.md")'));
        return unknown;
      }
      const ext = extname(arg).toLowerCase();
      if (ext !== '.md' && ext !== '.txt') {
        diags.push(diagnosticAt(at, 'error', 'FIL003', `load("${arg}"): only .md and .txt files can be loaded`));
        return unknown;
      }
      if (isAbsolute(arg)) {
        diags.push(diagnosticAt(at, 'error', 'FIL006', `load("${arg}"): absolute paths are not allowed`, 'write the path relative to this .hcl file'));
        return unknown;
      }
      const full = resolve(dirname(ctx.range.file), arg);
      if (!isInside(projectRoot, full)) {
        diags.push(diagnosticAt(at, 'error', 'FIL002', `load("${arg}"): the file is outside the project root ${projectRoot}`));
        return unknown;
      }
      const real = realPath(full);
      if (real !== undefined && !isInside(realRoot, real)) {
        diags.push(diagnosticAt(at, 'error', 'FIL002', `load("${arg}"): ${full} is a link to ${real}, outside the project root ${projectRoot}`, 'copy the file into the project instead of linking to it'));
        return unknown;
      }
      const read = readTextFile(real ?? full, LOAD_MAX_BYTES);
      if (read.ok) {
        sources?.set(full, read.text); // a file read is part of the config (LoadResult.sources)
        return read.text;
      }
      const message = read.problem === 'missing' ? `no such file (looked for ${full})` : `${full} ${read.message}`;
      const hint = read.problem === 'too-large' ? 'load() is for prompts and instructions; split the text or shorten it' : undefined;
      diags.push(diagnosticAt(at, 'error', PROBLEM_CODES[read.problem], `load("${arg}"): ${message}`, hint));
      return unknown;
    },
  };
}
