// Conformance (b): our AST's JSON projection deep-equals @cdktf/hcl2json's output for every
// `.hcl` file under examples/, every ```hcl block in docs/**/*.md (both read at run time, so new
// files are covered automatically), every valid corpus snippet, and a generated corpus covering
// every syntax form. Where hcl2json rejects a document, we must reject it on the same line.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithHcl2json } from './support/hcl2json.js';
import { generateDocuments } from './support/hcl-generator.js';
import { corpusDir, repoRoot, requireCorpus } from './support/paths.js';

requireCorpus();

function walk(dir: string, accept: (f: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full, accept));
    else if (accept(name)) out.push(full);
  }
  return out;
}

/** Fenced ```hcl blocks of a Markdown file, with the line each block starts on. */
function hclBlocks(markdown: string): Array<{ line: number; text: string }> {
  const blocks: Array<{ line: number; text: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*hcl\b/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence); j++) body.push(lines[j]!.slice(Math.min(open[1]!.length, lines[j]!.length - lines[j]!.trimStart().length)));
    blocks.push({ line: i + 2, text: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

const exampleFiles = walk(path.join(repoRoot, 'examples'), (f) => f.endsWith('.hcl'));
const docBlocks = walk(path.join(repoRoot, 'docs'), (f) => f.endsWith('.md')).flatMap((file) =>
  hclBlocks(readFileSync(file, 'utf8')).map((b) => ({ name: `${path.relative(repoRoot, file)}:${b.line}`, text: b.text })),
);
const corpusFiles = readdirSync(corpusDir).filter((f) => f.endsWith('.hcl')).sort();
const generated = generateDocuments(20250101, 300);

async function expectSameAsHcl2json(source: string, name: string): Promise<void> {
  const r = await compareWithHcl2json(source, path.basename(name).replace(/[^\w.-]/g, '_') || 'doc.hcl');
  if (!r.ok && r.ours !== undefined && r.theirs !== undefined) expect(r.ours, `${name}: ${r.detail}`).toEqual(r.theirs);
  expect(r.ok, `${name}: ${r.detail}`).toBe(true);
}

describe('JSON projection equals hcl2json', () => {
  it('extracts fenced hcl blocks from Markdown, including indented and tilde fences', () => {
    const md = 'text\n```hcl\na = 1\n```\n\n  ~~~hcl title\n  b = 2\n  ~~~\n```js\nx\n```\n';
    expect(hclBlocks(md)).toEqual([
      { line: 3, text: 'a = 1\n' },
      { line: 7, text: 'b = 2\n' },
    ]);
  });

  // examples/ and docs/ are being written by others: whatever is there at run time is checked.
  for (const file of exampleFiles) {
    it(`examples: ${path.relative(repoRoot, file)}`, async () => {
      await expectSameAsHcl2json(readFileSync(file, 'utf8'), file);
    });
  }

  for (const block of docBlocks) {
    it(`docs: ${block.name}`, async () => {
      await expectSameAsHcl2json(block.text, block.name);
    });
  }

  it.each(corpusFiles)('corpus: %s', async (f) => {
    await expectSameAsHcl2json(readFileSync(path.join(corpusDir, f), 'utf8'), f);
  });

  it('generated corpus: 300 documents covering every syntax form', async () => {
    const failures: string[] = [];
    let valid = 0;
    for (const [i, doc] of generated.entries()) {
      const r = await compareWithHcl2json(doc, `gen${i}.hcl`);
      if (r.valid) valid++;
      if (!r.ok) failures.push(`#${i}: ${r.detail}\n${r.ours !== undefined ? `ours   ${JSON.stringify(r.ours).slice(0, 400)}\ntheirs ${JSON.stringify(r.theirs).slice(0, 400)}` : ''}`);
    }
    expect(failures.slice(0, 3)).toEqual([]);
    // The generator must produce valid HCL, or the comparison would only be about errors.
    expect(valid).toBe(generated.length);
  });

  it('generated corpus exercises every syntax form', () => {
    const all = generated.join('\n');
    const forms: Record<string, RegExp> = {
      'block with 0 labels': /^\s*[a-z]+ \{$/m,
      'block with 3 labels': /^\s*[a-z]+ ("[^"]*"|[a-z_]+) ("[^"]*"|[a-z_]+) ("[^"]*"|[a-z_]+) \{/m,
      'one-line block': /^\s*[a-z]+[^=\n]*\{ [^}\n]+ = [^\n]* \}/m,
      'empty block': /\{\}$/m,
      'hash comment': /^\s*# /m,
      'slash comment': /^\s*\/\/ /m,
      'block comment': /\/\*[\s\S]*?\*\//,
      heredoc: /<<[A-Z]/,
      'indented heredoc': /<<-[A-Z]/,
      'if directive': /%\{~? if /,
      'for directive': /%\{~? for /,
      'strip marker': /~\}/,
      interpolation: /\$\{/,
      'escaped interpolation': /\$\$\{/,
      'for expression (tuple)': /\[for /,
      'for expression (object, grouping)': /\{for [^}]*=>[^}]*\.\.\./,
      'full splat': /\[\*\]/,
      'attribute splat': /\.\*\./,
      'legacy index': /\.[0-9]/,
      'function call with expansion': /\.\.\.\)/,
      conditional: / \? [^:]+ : /,
      'paren object key': /\{[^}]*\([a-z.]+\) =/,
      'colon object key': / : /,
      unicode: /[é日😀]/,
      'unary minus': /= -[a-z0-9]/,
      'logical not': /!(true|false|[a-z])/,
    };
    const missing = Object.entries(forms).filter(([, re]) => !re.test(all)).map(([k]) => k);
    expect(missing).toEqual([]);
  });
});
