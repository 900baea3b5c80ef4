// `.squadronignore` at the root of a config folder: paths the recursive load leaves out (test
// fixtures, vendored configs), one pattern a line, in a small subset of .gitignore's syntax:
// `#` comments and blank lines are skipped; a trailing `/` matches folders only; a pattern with a `/`
// elsewhere is relative to the root, one without matches that name at any depth; `*` and `?` match
// within one path segment and `**` across segments.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { diagnosticAt, type Diagnostic } from './hcl/diagnostic.js';
import { readTextFile } from './textFile.js';

export const IGNORE_FILE = '.squadronignore';

export interface IgnoreRules {
  /** `rel` is `/`-separated and relative to the root. */
  ignores(rel: string, isDir: boolean): boolean;
}

interface Rule {
  pattern: RegExp;
  dirOnly: boolean;
}

export function readIgnoreFile(root: string, diags: Diagnostic[]): IgnoreRules {
  const file = join(root, IGNORE_FILE);
  if (!existsSync(file)) return { ignores: () => false };
  const read = readTextFile(file);
  if (!read.ok) {
    diags.push({ severity: 'error', code: 'FIL004', message: `${file} ${read.message}`, file, line: 0, column: 0, endLine: 0, endColumn: 0 });
    return { ignores: () => false };
  }
  const rules: Rule[] = [];
  read.text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('!')) {
      const pos = { line: index + 1, column: 1, offset: 0 };
      diags.push(diagnosticAt({ file, start: pos, end: { ...pos, column: raw.length + 1 } }, 'warning', 'FIL010', 'negated patterns (!) are not supported in .squadronignore; the line is skipped', 'list only the folders to leave out'));
      return;
    }
    rules.push(compileRule(line));
  });
  return {
    ignores: (rel, isDir) => rules.some((r) => (isDir || !r.dirOnly) && r.pattern.test(rel)),
  };
}

function compileRule(line: string): Rule {
  const dirOnly = line.endsWith('/');
  let body = dirOnly ? line.slice(0, -1) : line;
  const anchored = body.includes('/');
  if (body.startsWith('/')) body = body.slice(1);
  let source = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '*' && body[i + 1] === '*') {
      // `**/` matches zero or more folders; a trailing `**` everything below.
      if (body[i + 2] === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return { pattern: new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`), dirOnly };
}
