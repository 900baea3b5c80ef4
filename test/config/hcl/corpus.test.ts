// Conformance (a): every snippet of the Go original's documentation, with HashiCorp's verdict in
// the manifest. We must agree on valid vs invalid, and report the first error on the same line.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseHcl } from '../../../config/hcl/index.js';
import { corpusDir, manifestPath, requireCorpus } from './support/paths.js';

requireCorpus();

const Entry = z.union([
  z.object({ syntax: z.literal('valid') }),
  z.object({ syntax: z.literal('invalid'), line: z.number(), column: z.number(), reference_error: z.string() }),
]);
const manifest = z.record(z.string(), Entry).parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
const files = readdirSync(corpusDir).filter((f) => f.endsWith('.hcl')).sort();
const valid = files.filter((f) => manifest[f]?.syntax === 'valid');
const invalid = files.filter((f) => manifest[f]?.syntax === 'invalid');

describe('squadron-docs corpus', () => {
  it('has a manifest entry for every snippet and a snippet for every entry', () => {
    expect(files.length).toBeGreaterThanOrEqual(176);
    expect(files.filter((f) => manifest[f] === undefined)).toEqual([]);
    expect(Object.keys(manifest).filter((f) => !files.includes(f))).toEqual([]);
    expect(invalid.length).toBeGreaterThan(0);
  });

  it.each(valid)('accepts %s, which HashiCorp accepts', (f) => {
    const { diagnostics } = parseHcl(readFileSync(path.join(corpusDir, f), 'utf8'), f);
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
  });

  it.each(invalid)('rejects %s with its first error on HashiCorp\'s line', (f) => {
    const entry = manifest[f]!;
    if (entry.syntax !== 'invalid') throw new Error('unreachable');
    const { diagnostics } = parseHcl(readFileSync(path.join(corpusDir, f), 'utf8'), f);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics[0]!.line).toBe(entry.line);
    expect(diagnostics[0]!.code).toMatch(/^SYN0\d\d$/);
  });

  it('also agrees on the column of the first error for every rejected snippet', () => {
    const disagreements: string[] = [];
    for (const f of invalid) {
      const entry = manifest[f]!;
      if (entry.syntax !== 'invalid') continue;
      const d = parseHcl(readFileSync(path.join(corpusDir, f), 'utf8'), f).diagnostics[0];
      if (d?.column !== entry.column) disagreements.push(`${f}: ours ${d?.column}, HashiCorp ${entry.column}`);
    }
    expect(disagreements).toEqual([]);
  });
});
