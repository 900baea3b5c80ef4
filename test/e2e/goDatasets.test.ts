// End-to-end: a dataset filled while the run goes, as Go Squadron's configs write it (no items, no
// bind_to): one task sets it with builtins.dataset.set, a later task iterates over what was set. The
// run is killed with SIGKILL while the items run and resumed: the resumed run walks the same items
// (stored with the run), and a set after the iteration started is refused.

import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ANTHROPIC_MODEL, fakeModelBlock, openRunDb, removeProjects, runThenResume, storedEvents, writeProject } from '../support/e2eProject.js';
import { runCli } from '../support/cli.js';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';

vi.setConfig({ testTimeout: 300_000 });
afterAll(removeProjects);

function project(modelBlock: string): string {
  return writeProject({
    'main.hcl': `${modelBlock}
mission "tour" {
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "cities" {
    description = "Cities to visit"
    schema {
      field "name" {
        type     = "string"
        required = true
      }
    }
  }
  task "find" {
    direct    = true
    objective = "Find the cities."
    tools     = [builtins.dataset.set, builtins.dataset.count]
  }
  task "visit" {
    direct     = true
    depends_on = [tasks.find]
    objective  = "Visit \${item.name}."
    tools      = [builtins.dataset.set]
    iterator {
      dataset  = datasets.cities
      parallel = true
    }
  }
}
`,
  });
}

const taskOf = (request: FakeRequest): string => /worker agent of task "([^"]+)"/.exec(request.canonical.system)?.[1] ?? '';
/** The last message the model is sent: the results of its previous turn's tool calls. */
const lastToolResult = (request: FakeRequest): string => JSON.stringify(request.canonical.messages.at(-1) ?? '');

describe('a dataset filled at run time (Go datasets)', () => {
  it('is set by one task, walked by a later one, and the same after a kill -9 and resume', async () => {
    let child: ChildProcess | undefined;
    let killed = false;
    const visited: string[] = [];
    const refusedSets: string[] = [];
    const counts: string[] = [];
    const server = await startFakeModelServer({
      respond: (request): FakeReply => {
        const task = taskOf(request);
        const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
        if (task === 'find') {
          if (turn === 0) {
            return {
              toolCalls: [
                { name: 'builtins_dataset_set', input: { name: 'cities', items: [{ name: 'Oslo' }, { name: 'Lima' }] } },
                { name: 'builtins_dataset_set', input: { name: 'cities', items: [{ name: 'Pune' }], append: true } },
              ],
            };
          }
          if (turn === 1) return { toolCalls: [{ name: 'builtins_dataset_count', input: { name: 'cities' } }] };
          counts.push(lastToolResult(request));
          return { toolCalls: [{ name: 'task_complete', input: { summary: 'found three cities' } }] };
        }
        const item = /visit\[(\d+)\]/.exec(task);
        if (item === null) return { status: 400, errorMessage: `unexpected request for "${task}"` };
        const city = /Visit (\w+)\./.exec(JSON.stringify(request.canonical.messages))?.[1] ?? '?';
        if (!killed && item[1] === '1' && turn === 0) {
          killed = true;
          child?.kill('SIGKILL');
          return { text: 'never read', delayMs: 5_000 };
        }
        if (turn === 0) return { toolCalls: [{ name: 'builtins_dataset_set', input: { name: 'cities', items: [{ name: 'Rome' }] } }] };
        refusedSets.push(lastToolResult(request));
        visited.push(city);
        return { toolCalls: [{ name: 'task_complete', input: { summary: `visited ${city}` } }] };
      },
    });
    try {
      const dir = project(fakeModelBlock(server));
      const planned = await runCli(['plan', dir], { cwd: dir });
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toContain('items given at run time');
      const { first, resumed } = await runThenResume(dir, (c) => (child = c));
      expect(killed).toBe(true);
      expect(first.signal).toBe('SIGKILL');
      expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);

      // The count the finding task read back, and every city walked, each once, the set-after-lock refused.
      expect(counts).toEqual([expect.stringContaining('holds 3 items')]);
      // (An item whose last reply was not stored when the process died asks again after resume.)
      expect([...new Set(visited)].sort()).toEqual(['Lima', 'Oslo', 'Pune']);
      // Every item tried to replace the dataset: refused (or interrupted by the kill), never done.
      expect(refusedSets.filter((r) => r.includes('is locked')).length).toBeGreaterThanOrEqual(2);
      expect(refusedSets.filter((r) => r.includes('set dataset'))).toEqual([]);

      // Stored with the run: the sets, then one lock of three items (not locked again on resume).
      expect(storedEvents(dir, 'dataset.set').map((e) => e['items'])).toEqual([[{ name: 'Oslo' }, { name: 'Lima' }], [{ name: 'Pune' }]]);
      expect(storedEvents(dir, 'dataset.locked')).toEqual([{ dataset: 'cities', count: 3 }]);
      const db = openRunDb(dir);
      try {
        const items = db.prepare("SELECT idx, status FROM task_items WHERE task = 'visit' ORDER BY idx").all() as { idx: number; status: string }[];
        expect(items.map((r) => `${r.idx}:${r.status}`)).toEqual(['0:completed', '1:completed', '2:completed']);
      } finally {
        db.close();
      }
    } finally {
      await server.close();
    }
  });
});
