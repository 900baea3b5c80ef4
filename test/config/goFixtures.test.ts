// The corpus derived from Go Squadron's own config tests (test/fixtures/go/index.json names each
// fixture's origin): every config Go accepts validates and plans here unchanged — a model its vendor
// retired aside, which stays an error (MOD002) — and every config Go rejects is rejected here.
// GAPS lists the accepted ones that still need a feature we lack, and why; a gap that starts
// validating fails the test, so the list stays true.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { plan, validate } from '../../api/index.js';
import type { Diagnostic } from '../../config/hcl/diagnostic.js';

interface Fixture {
  name: string;
  origin: string;
  accepted: boolean;
  expect: string[];
}

const root = join(import.meta.dirname, '..', 'fixtures', 'go');
const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as { fixtures: Fixture[] };

/** Accepted by Go, not yet here: the feature each needs. */
const GAPS: Readonly<Record<string, string>> = JSON.parse(readFileSync(join(root, 'gaps.json'), 'utf8')) as Record<string, string>;
/** Rejected by Go, accepted here: the Go rule we do not have, and why. */
const LOOSER: Readonly<Record<string, string>> = {
  'mission--rejects-depends-on-that-includes-a-direct-ancestor-of-anothe': 'Go rejects a depends_on that is implied transitively; here it is redundant but harmless',
  'mission--rejects-depends-on-that-includes-a-deeper-ancestor': 'Go rejects a depends_on that is implied transitively; here it is redundant but harmless',
  // A plugin's program is looked for when it is started: `squadron validate` and `run` start every
  // referenced plugin and refuse one that cannot start (PLG004, test/e2e/plugins.test.ts); this
  // in-process check loads the config without starting plugins.
  'load--returns-error-when-plugin-binary-is-not-found': 'found when the plugin is started (squadron validate, run), not at load',
  'plugin--returns-error-when-plugin-binary-is-not-found': 'found when the plugin is started (squadron validate, run), not at load',
  'plugin--returns-error-when-configured-plugin-binary-is-not-found': 'found when the plugin is started (squadron validate, run), not at load',
  'validate--returns-error-when-plugin-cannot-be-loaded': 'found when the plugin is started (squadron validate, run), not at load',
};

const BEFORE_RETIREMENT = '2026-06-01';
const retired = (d: Diagnostic) => d.code === 'MOD002' && d.message.includes('retired');
const errorsOf = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error' && !retired(d));

describe('Go fixtures accepted by Go', () => {
  for (const f of index.fixtures.filter((x) => x.accepted)) {
    const dir = join(root, 'corpus', f.name);
    if (GAPS[f.name] !== undefined) {
      test(`${f.name} still needs: ${GAPS[f.name]}`, async () => {
        expect(errorsOf((await validate(dir)).diagnostics).length).toBeGreaterThan(0);
      });
      continue;
    }
    test(`${f.origin} validates and plans`, async () => {
      const r = await validate(dir);
      expect(errorsOf(r.diagnostics).map((d) => `${d.code} ${d.message}`)).toEqual([]);
      // Planned as of a day before the retirement, which the assertion above set aside.
      const before = await validate(dir, { today: BEFORE_RETIREMENT });
      expect(before.graph).toBeDefined();
      const project = { graph: before.graph!, path: dir, sources: before.sources ?? new Map<string, string>(), warnings: [] };
      for (const mission of before.graph!.missions) {
        const p = await plan({ config: project, mission: mission.name });
        expect(p.tasks.length).toBe(mission.tasks.length);
      }
    });
  }
});

describe('Go fixtures rejected by Go', () => {
  for (const f of index.fixtures.filter((x) => !x.accepted && LOOSER[x.name] === undefined)) {
    test(`${f.origin} is rejected (Go: ${f.expect.join(', ') || 'an error'})`, async () => {
      const r = await validate(join(root, 'corpus', f.name));
      expect(errorsOf(r.diagnostics).length).toBeGreaterThan(0);
    });
  }
});
