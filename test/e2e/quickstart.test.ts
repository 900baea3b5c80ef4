// The README's first command: the quickstart runs offline from its cassette, with real tools, scheduler
// and database. After a deliberate prompt change, re-record the cassette with
// `node dist/test/support/recordExample.js quickstart` (see that file) and review the diff like code.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const EXAMPLE = join(REPO_ROOT, 'examples', 'quickstart');
const CASSETTE = join(EXAMPLE, 'cassette.jsonl');

describe('examples/quickstart', () => {
  it('runs offline from its cassette and says so, with real tools and storage', async () => {
    const dir = tempDir();
    const result = await runCli(['run', 'examples/quickstart', '--json', '--db', join(dir, 'q.db'), '--workspace', join(dir, 'ws')]);
    expect(result.stderr).toContain('replays its responses from examples/quickstart/cassette.jsonl');
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.status).toBe('completed');
    expect(doc.tasks.research.status).toBe('completed');
    expect(doc.tasks.review.output).toEqual({ fact_count: 3, headline: 'Tide pools: tough little worlds between the tides' });
    // The worker's tool really wrote the file the reviewer then read.
    const facts = readFileSync(join(dir, 'ws', 'notes', 'facts.md'), 'utf8');
    expect(facts.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(3);
  });

  it('fails loudly naming the difference when the run diverges from the cassette', async () => {
    const dir = tempDir();
    // A different topic changes the objective, so the first request no longer matches the recording.
    const result = await runCli(['run', 'examples/quickstart', '-i', 'topic=volcanoes', '--db', join(dir, 'q.db'), '--workspace', join(dir, 'ws')]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/diverges from the cassette at messages\[0\]/);
    expect(result.stdout + result.stderr).toContain('volcanoes');
    expect(existsSync(CASSETTE)).toBe(true);
  });
});
