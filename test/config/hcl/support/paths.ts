// Locations the conformance tests read at run time: the repository root, and the HCL corpus (real
// snippets from the Go original's docs with HashiCorp's verdicts), vendored in test/fixtures so a
// fresh clone runs the conformance tests.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
export const corpusRoot = path.join(repoRoot, 'test', 'fixtures', 'hcl-corpus');
export const corpusDir = path.join(corpusRoot, 'squadron-docs');
export const manifestPath = path.join(corpusRoot, 'squadron-docs.manifest.json');

/** Throws (failing the suite at collection time) when the shared corpus is not where it should be. */
export function requireCorpus(): void {
  for (const p of [corpusDir, manifestPath]) {
    if (!existsSync(p)) {
      throw new Error(`HCL conformance corpus missing: ${p} does not exist. The conformance corpus is vendored in test/fixtures/hcl-corpus.`);
    }
  }
}
