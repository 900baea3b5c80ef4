// End-to-end: `squadron chat` on PostgreSQL (--db postgres://…), the store the server and the
// workers share: the chat is stored there as a run, and `--resume` continues it from there.

import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { withFakeModelServer, type FakeRequest } from '../support/fakeModelServer.js';
import { usePostgres } from '../support/postgres.js';

const server = usePostgres();
afterAll(removeProjects);

function userTexts(req: FakeRequest): string[] {
  return req.canonical.messages.filter((m) => m.role === 'user').map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''));
}

describe('squadron chat on PostgreSQL', () => {
  it('stores the chat in the database given and continues it with --resume', async () => {
    const url = await server().createDatabase();
    await withFakeModelServer((req) => ({ text: `heard ${userTexts(req).length}` }), async (models) => {
      const dir = writeProject({ 'agents.hcl': `${fakeModelBlock(models)}agent "pg_helper" {\n  model       = ${ANTHROPIC_MODEL}\n  personality = "Helps."\n}\n` });
      const first = await runCli(['chat', 'pg_helper', '--db', url], { cwd: dir, stdin: 'one\ntwo\n' });
      expect(first.code, first.stderr).toBe(0);
      const id = /chat (run_[a-z0-9]+)/.exec(first.stderr)![1]!;
      // The hint to continue names the database without its password.
      expect(first.stderr).toContain(`squadron chat --resume ${id} --db`);
      expect(first.stderr).not.toContain('squadron-test-password');
      const again = await runCli(['chat', '--resume', id, '--db', url], { cwd: dir, stdin: 'three\n' });
      expect(again.code, again.stderr).toBe(0);
      expect(userTexts(models.requests.at(-1)!)).toEqual(['one', 'two', 'three']);
      expect(again.stdout).toContain('heard 3');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const runs = await client.query("SELECT mission, status FROM runs WHERE mission = 'chat:pg_helper'");
        expect(runs.rows).toEqual([{ mission: 'chat:pg_helper', status: 'completed' }]);
        expect((await client.query('SELECT COUNT(*)::int AS n FROM messages')).rows[0].n).toBe(6);
      } finally {
        await client.end();
      }
    });
  }, 180_000);
});
