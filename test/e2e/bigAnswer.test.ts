// End-to-end: a 10 MB model answer is stored once. A worker answers its commander with 10 MB of
// text; the commander's call_agent result is too large for its context, so it is stored and the
// commander reads a preview with a handle. The answer lives in the worker's message; the stored
// result refers to it instead of holding a second copy (and the session row holds none), so the
// database stays near 10 MB — it was 31 MB, the answer three times — and the stored result still
// reads back whole, byte for byte.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, openRunDb, removeProjects, requestsOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 300_000 });
afterAll(removeProjects);

const MB = 1024 * 1024;

describe('a 10 MB model answer', () => {
  it('is stored once, and the stored result that quotes it reads back whole', async () => {
    // Quotes and a newline, so the answer is escaped inside the call_agent result's JSON.
    const answer = 'lorem "ipsum" dolor\nsit amet '.repeat(Math.ceil((10 * MB) / 28)).slice(0, 10 * MB).trim();
    const turns = turnScript({
      'commander of task "t"': [callAgent('worker', 'Write it.'), taskComplete('Finished.')],
      'worker agent of task "t"': [{ text: answer, chunkSize: 64 * 1024 }],
    });
    const server = await startFakeModelServer({ respond: turns.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "t" {
    objective = "Write it."
    tools     = [builtins.utils.current_time]
  }
}
`,
      });
      const run = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      const runId = (JSON.parse(run.stdout) as { run_id: string }).run_id;

      const dbFile = join(dir, '.squadron', 'squadron.db');
      const wal = `${dbFile}-wal`;
      const bytes = statSync(dbFile).size + (statSync(wal, { throwIfNoEntry: false })?.size ?? 0);
      console.log(`a 10 MB answer: database ${(bytes / MB).toFixed(1)} MB`);
      expect(bytes).toBeLessThan(12 * MB);
      const db = openRunDb(dir);
      try {
        const tables = Object.fromEntries((db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[]).map((r) => [r.name, r.bytes]));
        expect(tables['messages']).toBeGreaterThan(10 * MB);
        expect(tables['stored_results'] ?? 0).toBeLessThan(MB);
        expect(tables['sessions'] ?? 0).toBeLessThan(MB);
      } finally {
        db.close();
      }

      // The commander saw a preview with a handle; the stored result reads back whole.
      const preview = JSON.stringify(requestsOf(server, commanderOf('t'))[1]?.canonical.messages.at(-1));
      const handle = /res_[0-9a-f]{16}/.exec(preview)?.[0];
      expect(handle).toBeDefined();
      const read = await runCli(['inspect', runId, '--result', handle!, '--json'], { cwd: dir });
      expect(read.code, read.stderr).toBe(0);
      const payload = (JSON.parse(read.stdout) as { payload: { text: string } }).payload;
      expect(JSON.parse(payload.text)).toEqual({ agent_id: 'worker', status: 'answered', answer });
    } finally {
      await server.close();
    }
  });
});
