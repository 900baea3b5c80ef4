// The loader's parse (parseHclDeferred: the file read in pieces, each top-level block's body parsed
// again when read) must give exactly what parseHcl gives: the same diagnostics and the same tree,
// ranges included. Checked on every corpus snippet and on all valid snippets in one file, cut at
// every top-level item. And any block of a file without diagnostics, nested or not, parses again on
// its own to the tree it has in its file (what a loaded task's objective and a custom tool's fields
// are read from).

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHcl, parseHclDeferred, reparseBlock, SourceRange, type Block } from '../../../config/hcl/index.js';
import { corpusDir, requireCorpus } from './support/paths.js';

requireCorpus();

const files = readdirSync(corpusDir).filter((f) => f.endsWith('.hcl')).sort();

/** The tree as plain data: ranges as offsets, a block's fields read through its getters. */
function plain(value: unknown): unknown {
  if (value instanceof SourceRange) return [value.startOffset, value.endOffset];
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  const v = value as Record<string, unknown>;
  if (v['kind'] === 'Block') {
    const keys = ['type', 'typeRange', 'labels', 'labelRanges', 'body', 'openBraceRange', 'closeBraceRange', 'range'];
    return Object.fromEntries(keys.map((k) => [k, plain(v[k])]));
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}

function expectSameParse(text: string, name: string, chunk: number): void {
  const eager = parseHcl(text, name);
  const deferred = parseHclDeferred(text, name, chunk);
  expect(deferred.diagnostics).toEqual(eager.diagnostics);
  expect(plain(deferred.file.body)).toEqual(plain(eager.file.body));
  // Read twice: each read parses the body again, to the same tree.
  expect(plain(deferred.file.body)).toEqual(plain(eager.file.body));
}

describe('parseHclDeferred', () => {
  it.each(files)('gives what parseHcl gives for %s, cut at every top-level item', (f) => {
    expectSameParse(readFileSync(path.join(corpusDir, f), 'utf8'), f, 1);
  });

  it('gives what parseHcl gives for all snippets in one file, in pieces of any size', () => {
    const all = files.map((f) => readFileSync(path.join(corpusDir, f), 'utf8')).join('\n');
    // The snippets that keep one file valid (two may set the same top-level attribute).
    let valid = '';
    for (const f of files) {
      const more = `${valid}\n${readFileSync(path.join(corpusDir, f), 'utf8')}`;
      if (parseHcl(more, 'valid.hcl').diagnostics.length === 0) valid = more;
    }
    for (const chunk of [1, 100, 10_000, 1 << 20]) {
      expectSameParse(all, 'all.hcl', chunk);
      expectSameParse(valid, 'valid.hcl', chunk);
    }
    // The valid file takes the deferred path (a body read through a getter, not held).
    const blocks = parseHclDeferred(valid, 'valid.hcl', 1).file.body.blocks;
    expect(blocks.length).toBeGreaterThan(100);
    expect(blocks.every((b) => Object.getOwnPropertyDescriptor(b, 'body') === undefined)).toBe(true);
  });

  it('reports a top-level attribute set in two pieces, as parseHcl does', () => {
    const text = 'a = 1\nb {\n}\na = 2\n';
    expectSameParse(text, 'x.hcl', 1);
    expect(parseHclDeferred(text, 'x.hcl', 1).diagnostics.map((d) => d.code)).toEqual(parseHcl(text, 'x.hcl').diagnostics.map((d) => d.code));
    expect(parseHcl(text, 'x.hcl').diagnostics.length).toBe(1);
  });

  it('parses any block of a valid file again on its own, nested ones included, to the same tree', () => {
    let blocks = 0;
    for (const f of files) {
      const parsed = parseHcl(readFileSync(path.join(corpusDir, f), 'utf8'), f);
      if (parsed.diagnostics.length > 0) continue;
      const walk = (bs: readonly Block[]): void => {
        for (const b of bs) {
          expect(plain(reparseBlock(b.range))).toEqual(plain(b));
          blocks++;
          walk(b.body.blocks);
        }
      };
      walk(parsed.file.body.blocks);
    }
    // Nested blocks (tasks in missions, routes in routers) are most of them.
    expect(blocks).toBeGreaterThan(300);
  });
});
