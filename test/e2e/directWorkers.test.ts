// End-to-end: direct tasks on PostgreSQL, executed by `squadron worker` processes. A detached run of
// a direct task (one unit) and then a direct iterated task (one unit per item) completes on two
// workers: each unit is one worker session (no commander session anywhere), each item's side effect
// happens once, each session holds its two replies once, and inspect shows the tasks as direct with
// the runner of each item.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, LOCAL_HTTP, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';
import { usePostgres } from '../support/postgres.js';
import { query, startWorker, waitFor, type Worker } from '../support/workerProcess.js';

const server = usePostgres();
afterAll(removeProjects);

const ITEMS = 12;

function project(baseUrl: string): string {
  const items = Array.from({ length: ITEMS }, (_, i) => `{ n = ${i} }`).join(', ');
  return writeProject({
    'main.hcl': `${LOCAL_HTTP}
model "fake" {
  provider = "anthropic"
  base_url = "${baseUrl}"
  api_key  = "k"
}
mission "fan" {
  direct       = true
  max_parallel = 4
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "things" {
    items  = [${items}]
    schema = {
      n = integer("which thing", true)
    }
  }
  task "prepare" {
    objective = "Prepare the marking."
    tools     = [builtins.http.post]
  }
  task "mark" {
    depends_on = [tasks.prepare]
    objective  = "Mark thing \${item.n}."
    tools      = [builtins.http.post]
    iterator {
      dataset           = datasets.things
      parallel          = true
      concurrency_limit = 4
    }
  }
}
`,
  });
}

/** The session a request belongs to: `prepare` or `mark[i]` (always a worker: the tasks are direct). */
function labelOf(request: FakeRequest): string | undefined {
  return /worker agent of task "([a-z]+(?:\[\d+\])?)"/.exec(request.canonical.system)?.[1];
}

function script(counterUrl: string): (request: FakeRequest) => FakeReply {
  return (request) => {
    const label = labelOf(request);
    if (label === undefined) return { status: 400, errorMessage: `not a direct worker: ${request.canonical.system.slice(0, 80)}` };
    const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
    if (turn === 0) return { delayMs: 100, toolCalls: [{ name: 'builtins_http_post', input: { url: `${counterUrl}/mark`, body: label, content_type: 'text' } }] };
    return { delayMs: 100, toolCalls: [{ name: 'task_complete', input: { summary: `${label} done` } }] };
  };
}

describe('direct tasks on PostgreSQL workers', () => {
  it('runs a direct task and the items of a direct iterated task as worker sessions on the workers, each side effect once', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    const workers: Worker[] = [];
    try {
      const dir = project(models.anthropicBaseURL);
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)?.[1];
      expect(runId, queued.stdout).toBeDefined();
      for (let i = 0; i < 2; i++) workers.push(startWorker(dir, url, 3));
      const status = await waitFor('the run to finish', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      for (const w of workers) w.child.kill('SIGTERM');
      for (const w of workers) expect(await w.exited, w.out()).toBe(0);
      expect(status, workers.map((w) => w.out()).join('\n')).toBe('completed');

      // Each side effect once: prepare's and every item's.
      expect([...counter.marks].sort()).toEqual(['prepare', ...Array.from({ length: ITEMS }, (_, i) => `mark[${i}]`)].sort());
      // Only worker sessions, each with its two replies; two requests per unit of work.
      const sessions = await query<{ task_name: string; agent: string; role: string; status: string; replies: string }>(
        url,
        `SELECT s.task_name, s.agent, s.role, s.status, (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.role = 'assistant')::text AS replies FROM sessions s WHERE s.run_id = $1`,
        [runId],
      );
      expect(sessions).toHaveLength(ITEMS + 1);
      expect(sessions.filter((s) => s.agent !== 'worker' || s.role !== 'agent' || s.status !== 'completed' || s.replies !== '2')).toEqual([]);
      expect(models.requests).toHaveLength((ITEMS + 1) * 2);
      // The units were the workers': the task's, and one per item.
      const units = await query<{ task: string; owner: string; state: string }>(url, "SELECT task, owner, state FROM work_units WHERE run_id = $1 AND kind = 'task'", [runId]);
      expect(units.map((u) => u.task).sort()).toEqual(['prepare', ...Array.from({ length: ITEMS }, (_, i) => `mark[${i}]`)].sort());
      expect(units.every((u) => u.state === 'done' && u.owner.startsWith('wrk_'))).toBe(true);

      const shown = await runCli(['inspect', runId!, '--db', url, '--json'], { cwd: dir });
      expect(shown.code, shown.stderr).toBe(0);
      const doc = JSON.parse(shown.stdout) as { tasks: { name: string; direct?: boolean; summary?: string; items?: { list: { runner?: { id: string } }[] } }[] };
      expect(doc.tasks.map((t) => [t.name, t.direct])).toEqual([
        ['prepare', true],
        ['mark', true],
      ]);
      expect(doc.tasks[0]!.summary).toBe('prepare done');
      expect(doc.tasks[1]!.items!.list.every((i) => i.runner?.id.startsWith('wrk_'))).toBe(true);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await models.close();
      await counter.close();
    }
  }, 600_000);
});
