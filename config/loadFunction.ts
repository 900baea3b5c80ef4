// The `load("file.md")` function: the contents of a text file next to the config, so long prompts
// and instructions can live in Markdown. Only .md and .txt, relative to the declaring file's
// directory, never outside the project root. Problems are reported at the argument itself.

import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve } from 'node:path';
import { diagnosticAt, type Diagnostic } from './hcl/diagnostic.js';
import { unknown, type HclFunction } from './hcl/value.js';

/** Whether `path` is `root` itself or inside it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Builds `load` for one config load. Errors go to `diags` with our own codes, and the call yields
 * an unknown value so the evaluator adds nothing of its own.
 */
export function makeLoadFunction(projectRoot: string, diags: Diagnostic[]): HclFunction {
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
      try {
        if (!statSync(full).isFile()) {
          diags.push(diagnosticAt(at, 'error', 'FIL004', `load("${arg}"): ${full} is not a file`));
          return unknown;
        }
        return readFileSync(full, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') diags.push(diagnosticAt(at, 'error', 'FIL001', `load("${arg}"): no such file (looked for ${full})`));
        else diags.push(diagnosticAt(at, 'error', 'FIL004', `load("${arg}"): ${(err as Error).message}`));
        return unknown;
      }
    },
  };
}
