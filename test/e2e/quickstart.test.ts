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
    // No model was called, so nothing was spent, whatever the recorded model's price.
    expect(doc.usage.model_turns).toBe(9);
    expect(doc.usage.cost_usd).toBe(0);
    // The worker's tool really wrote the file the reviewer then read.
    const facts = readFileSync(join(dir, 'ws', 'notes', 'facts.md'), 'utf8');
    expect(facts.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(3);
  });

  it('says in the human report that the run cost nothing because it was replayed', async () => {
    const dir = tempDir();
    const result = await runCli(['run', 'examples/quickstart', '--db', join(dir, 'q.db'), '--workspace', join(dir, 'ws')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^mission quickstart completed · [\d,]+ tokens · \$0 \(replayed\) · 9 model turns$/m);
  });

  it('names the cause in one line when a changed input makes the run leave the recording', async () => {
    const dir = tempDir();
    // A different topic changes the objective, so the first request no longer matches the recording.
    const result = await runCli(['run', 'examples/quickstart', '-i', 'topic=volcanoes', '--db', join(dir, 'q.db'), '--workspace', join(dir, 'ws')]);
    expect(result.code).toBe(1);
    const cause =
      'replay: the cassette has no answer for research/commander turn 1: the task objective differs from the recording: "tide pools" recorded, "volcanoes" now (a mission input changed?';
    const errorLine = result.stdout.split('\n').find((l) => l.startsWith('error: '));
    expect(errorLine).toContain(cause);
    // One line naming the cause, not a dump of both requests.
    expect(result.stdout + result.stderr).not.toContain('diverges');
    expect(result.stdout + result.stderr).not.toContain('expected "');
    expect(existsSync(CASSETTE)).toBe(true);
  });
});
