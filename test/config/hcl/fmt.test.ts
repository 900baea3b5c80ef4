// The formatter changes only layout: on every valid corpus snippet, example and test HCL, format →
// parse gives the same syntax tree (ranges aside), formatting is idempotent, and each layout rule
// (indentation, spacing, `=` and comment alignment) does what terraform fmt does.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHcl } from '../../../config/hcl/index.js';
import { formatHcl } from '../../../config/hcl/fmt.js';
import { corpusDir, manifestPath, repoRoot, requireCorpus } from './support/paths.js';

requireCorpus();

/** The AST without positions and source text: what formatting must not change. */
function shape(source: string, name: string): unknown {
  const { file, diagnostics } = parseHcl(source, name);
  expect(diagnostics).toEqual([]);
  return JSON.parse(JSON.stringify(file.body, (key, value: unknown) => (/range$|ranges$/i.test(key) ? undefined : value)));
}

function hclFilesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) hclFilesUnder(p, out);
    else if (name.endsWith('.hcl')) out.push(p);
  }
  return out;
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { syntax: string }>;
const corpus = readdirSync(corpusDir).filter((f) => f.endsWith('.hcl') && manifest[f]?.syntax === 'valid').map((f) => path.join(corpusDir, f));
const examples = hclFilesUnder(path.join(repoRoot, 'examples'));

function fmt(source: string): string {
  const r = formatHcl(source, 'x.hcl');
  if (r.text === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.text;
}

describe('format keeps the syntax tree and is idempotent', () => {
  it('covers the corpus and the examples', () => {
    expect(corpus.length).toBeGreaterThan(100);
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each([...corpus, ...examples].map((f) => [path.relative(repoRoot, f), f]))('%s', (_, file) => {
    const source = readFileSync(file, 'utf8');
    const once = fmt(source);
    expect(shape(once, file)).toEqual(shape(source, file));
    expect(fmt(once)).toBe(once);
  });

  it('every example in the repository is already formatted', () => {
    const unformatted = examples.filter((f) => fmt(readFileSync(f, 'utf8')) !== readFileSync(f, 'utf8'));
    expect(unformatted.map((f) => path.relative(repoRoot, f))).toEqual([]);
  });
});

describe('layout rules', () => {
  it('indents by nesting, two spaces a level, closing brackets back out', () => {
    expect(fmt('a {\nb {\nc = 1\n}\n}\n')).toBe('a {\n  b {\n    c = 1\n  }\n}\n');
    expect(fmt('x = [\n1,\n[\n2,\n],\n]\n')).toBe('x = [\n  1,\n  [\n    2,\n  ],\n]\n');
  });

  it('aligns = over consecutive one-line attributes; a blank line, a comment line or a multi-line value ends the run', () => {
    expect(fmt('a = 1\nlonger = 2\n\nb = 3\nccc = 4\n# note\nd = 5\n')).toBe('a      = 1\nlonger = 2\n\nb   = 3\nccc = 4\n# note\nd = 5\n');
    expect(fmt('a = 1\nbb = {\nc = 1\n}\n')).toBe('a = 1\nbb = {\n  c = 1\n}\n');
  });

  it('spaces tokens as terraform fmt does', () => {
    expect(fmt('a=f( 1 ,2 )\n')).toBe('a = f(1, 2)\n');
    expect(fmt('a = -1 - 2*x\n')).toBe('a = -1 - 2 * x\n');
    expect(fmt('a = !x&&y\n')).toBe('a = !x && y\n');
    expect(fmt('a = [ for v in [1,2] : v ]\n')).toBe('a = [for v in [1, 2] : v]\n');
    expect(fmt('a = {b=1}\nc = {}\n')).toBe('a = { b = 1 }\nc = {}\n');
    expect(fmt('a = x [0] . y\n')).toBe('a = x[0].y\n');
    expect(fmt('a = x ? -1 : 2\n')).toBe('a = x ? -1 : 2\n');
  });

  it('keeps every comment, string and heredoc byte for byte, and aligns trailing comments', () => {
    const src = '# head\na = "  spaced  ${ x }" # one\nbbb = 2 // two\n\n/* mid */ c = 3\n\nd = <<-EOT\n    keep   this\n  EOT\n';
    expect(fmt(src)).toBe('# head\na   = "  spaced  ${ x }" # one\nbbb = 2                  // two\n\n/* mid */ c = 3\n\nd = <<-EOT\n    keep   this\n  EOT\n');
  });

  it('ends the file with exactly one newline and trims trailing spaces; CRLF becomes LF', () => {
    expect(fmt('a = 1   \r\n\r\n\r\n')).toBe('a = 1\n');
    expect(fmt('')).toBe('');
  });

  it('refuses a file with syntax errors, reporting them', () => {
    const r = formatHcl('a = "open\n', 'x.hcl');
    expect(r.text).toBeUndefined();
    expect(r.diagnostics[0]!.code).toBe('SYN004');
  });
});
