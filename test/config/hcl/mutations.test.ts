// Error-position conformance beyond the corpus: take generated valid documents, break them with
// random edits (delete characters, insert `;`, braces, quotes, operators …) and check that our
// first error is on the same line — and almost always the same column — as HashiCorp's.

import { describe, expect, it } from 'vitest';
import { compareWithHcl2json } from './support/hcl2json.js';
import { generateDocuments, rng } from './support/hcl-generator.js';

const INSERTS = [';', '}', '{', '"', '(', ')', ']', '[', ',', '=', '\n', '$', '%{', '${', '<<', '#', '/*', '.', 'x', ' if ', '~', '\t', '&', "'", '`', '?', ':', '=>', '...', '!', '-'];

function mutations(seed: number, docs: number, perDoc: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (const d of generateDocuments(seed, docs)) {
    for (let k = 0; k < perDoc; k++) {
      const pos = Math.floor(r() * d.length);
      if (r() < 0.35) out.push(d.slice(0, pos) + d.slice(pos + 1 + Math.floor(r() * 3)));
      else out.push(d.slice(0, pos) + INSERTS[Math.floor(r() * INSERTS.length)]! + d.slice(pos));
    }
  }
  return out;
}

describe('first syntax error agrees with hcl2json on mutated documents', () => {
  it('reports the first error on the same line as HashiCorp for 450 broken documents', async () => {
    const lineMismatches: string[] = [];
    let rejected = 0;
    let columnAgreements = 0;
    for (const [i, src] of mutations(777, 150, 3).entries()) {
      const r = await compareWithHcl2json(src, `m${i}.hcl`);
      if (!r.valid) {
        rejected++;
        if (r.columnAgrees) columnAgreements++;
      }
      if (!r.ok) lineMismatches.push(`#${i}: ${r.detail}`);
    }
    expect(lineMismatches.slice(0, 5)).toEqual([]);
    // Most edits must really break the document, or this test would prove little.
    expect(rejected).toBeGreaterThan(250);
    expect(columnAgreements / rejected).toBeGreaterThanOrEqual(0.98);
  });
});
