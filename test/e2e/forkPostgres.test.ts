// End-to-end: `squadron fork` and `squadron diff` on PostgreSQL. The copy runs the same statements as
// on SQLite (numbered placeholders): a fork at a task copies the tasks before it (no request, no side
// effect), a fork at a turn continues the copied session from the parent's request at that turn, a
// fork of the fork works, and diff, runs and inspect read the lineage from PostgreSQL.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { forkMission, forkScript, labelOf } from '../support/forkMission.js';
import { startCounter } from '../support/localServer.js';
import { usePostgres } from '../support/postgres.js';
import { query } from '../support/workerProcess.js';

const server = usePostgres();
afterAll(removeProjects);

function forkedId(stdout: string): string {
  const id = /^run (run_\w+) \(forked from/m.exec(stdout)?.[1];
  expect(id, stdout).toBeDefined();
  return id!;
}

describe('squadron fork on PostgreSQL', () => {
  it('forks at a task and at a turn, forks a fork, and diffs, all from PostgreSQL', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: forkScript(counter.url) });
    try {
      const dir = writeProject({ 'main.hcl': forkMission(models, counter.url) });
      const first = await runCli(['run', dir, '--db', url], { cwd: dir });
      expect(first.code, first.stderr + first.stdout).toBe(0);
      const parent = /^run (run_\w+)/m.exec(first.stdout)![1]!;
      const parentDraft = models.requests.filter((r) => labelOf(r) === 'draft');
      counter.marks.length = 0;

      let before = models.requests.length;
      const atTurn = await runCli(['fork', parent, '--at', 'draft', '--turn', '2', '--db', url], { cwd: dir });
      expect(atTurn.code, atTurn.stderr + atTurn.stdout).toBe(0);
      const child = forkedId(atTurn.stdout);
      const requests = models.requests.slice(before);
      expect(requests.map(labelOf)).toEqual(['draft', 'draft', 'publish', 'publish']);
      expect(requests[0]!.canonical.messages).toEqual(parentDraft[1]!.canonical.messages);
      expect(counter.marks).toEqual(['OBJ-draft-one#2', 'OBJ-publish-one#1']);

      const rows = await query<{ name: string; status: string }>(url, 'SELECT name, status FROM tasks WHERE run_id = $1 ORDER BY created_seq', [child]);
      expect(rows).toEqual([
        { name: 'prepare', status: 'completed' },
        { name: 'draft', status: 'completed' },
        { name: 'publish', status: 'completed' },
      ]);
      const inherited = await query<{ n: string }>(url, 'SELECT count(*)::text AS n FROM model_turns WHERE run_id = $1 AND inherited', [child]);
      // prepare's two turns and draft's first.
      expect(inherited[0]!.n).toBe('3');

      counter.marks.length = 0;
      before = models.requests.length;
      const again = await runCli(['fork', child, '--at', 'publish', '--set-input', 'tag=pg', '--db', url], { cwd: dir });
      expect(again.code, again.stderr + again.stdout).toBe(0);
      const grandchild = forkedId(again.stdout);
      expect(models.requests.slice(before).map(labelOf)).toEqual(['publish', 'publish']);
      expect(counter.marks).toEqual(['OBJ-publish-pg#1']);

      const diff = await runCli(['diff', child, grandchild, '--db', url, '--json'], { cwd: dir });
      expect(diff.code, diff.stderr).toBe(0);
      const doc = JSON.parse(diff.stdout) as { b: { parent_run_id: string }; tasks: { task: string; differs: boolean; b: { copied: boolean; summary: string } }[] };
      expect(doc.b.parent_run_id).toBe(child);
      expect(doc.tasks.map((t) => [t.task, t.differs, t.b.copied, t.b.summary])).toEqual([
        ['prepare', false, true, 'done OBJ-prepare-one'],
        ['draft', false, true, 'done OBJ-draft-one'],
        ['publish', true, false, 'done OBJ-publish-pg'],
      ]);
      const runs = JSON.parse((await runCli(['runs', '--db', url, '--json'], { cwd: dir })).stdout) as { runs: { id: string; parent_run_id?: string; fork?: { task: string; turn?: number; changes: string[] } }[] };
      expect(runs.runs.find((r) => r.id === child)).toMatchObject({ parent_run_id: parent, fork: { task: 'draft', turn: 2, changes: [] } });
      expect(runs.runs.find((r) => r.id === grandchild)).toMatchObject({ parent_run_id: child, fork: { task: 'publish', changes: ['input tag'] } });
      const inspect = await runCli(['inspect', grandchild, '--db', url], { cwd: dir });
      expect(inspect.stdout).toContain(`forked from ${child} at publish · changed: input tag · copied: prepare, draft`);
    } finally {
      await models.close();
      await counter.close();
    }
  }, 600_000);
});
