// End-to-end: `squadron tools`. It lists a task's authorized tools with their provenance, and its
// `--search` runs exactly the search the worker's search_tools runs: the same ranked page for the same
// query, compared here with the tool results the fake model server recorded during a real run.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { BILLING_TOOLS, billingMissionHcl } from '../support/billingMission.js';
import { ANTHROPIC_MODEL, fakeModelBlock, latestToolResults, requestsOf, resultText, workerOf, writeProject, removeProjects } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

// Each test spawns the CLI several times; the machine may be shared and slow.
afterAll(removeProjects);

/** The searches the worker makes, in order; `tools --search` must answer each the same way. */
const SEARCHES: { query?: string; group?: string; page?: number }[] = [
  { query: 'refund a payment' },
  { query: 'customer' },
  { query: 'email the bill to the client' },
  { query: '', group: 'billing' },
  { query: '', group: 'billing', page: 2 },
  { query: 'write', group: 'builtins.files' },
  { query: 'xyzzy plugh' },
];

interface Listed {
  ref: string;
  name: string;
  group: string;
  description: string;
}

let server: FakeModelServer;
let dir = '';

beforeAll(async () => {
  const turns = turnScript({
    'commander of task "bill"': [callAgent('worker', 'Look around.'), taskComplete('Looked.')],
    'worker agent of task "bill"': [...SEARCHES.map((s) => toolCall('search_tools', s)), { text: 'Searched.' }],
  });
  server = await startFakeModelServer({ respond: turns.respond });
  dir = writeProject({ 'mission.hcl': billingMissionHcl(fakeModelBlock(server), ANTHROPIC_MODEL, 'http://127.0.0.1:9') });
  const run = await runCli(['run', dir], { cwd: dir });
  expect(turns.problems).toEqual([]);
  expect(run.code, run.stderr).toBe(0);
});

afterAll(async () => {
  await server.close();
});

describe('squadron tools', () => {
  it('lists the task\'s authorized tools with group and provenance (--json contract)', async () => {
    const result = await runCli(['tools', dir, '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout) as { task: string; tools: (Listed & { via: string })[] };
    expect(doc.task).toBe('bill');
    expect(doc.tools).toHaveLength(18);
    expect(doc.tools.slice(0, BILLING_TOOLS.length)).toEqual(
      BILLING_TOOLS.map(([name, description]) => ({ ref: `tools.${name}`, name: `tools_${name}`, group: 'billing', description, via: 'toolset:billing' })),
    );
    expect(doc.tools.find((t) => t.ref === 'builtins.files.write')).toMatchObject({ name: 'builtins_files_write', group: 'builtins.files', via: 'task' });
    expect(doc.tools.map((t) => t.ref)).not.toContain('builtins.utils.sleep');

    const text = await runCli(['tools', dir, '--task', 'bill'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('task bill: 18 authorized tools');
    expect(text.stdout).toMatch(/tools_refund_payment\s+billing\s+toolset:billing\s+Refund a captured payment, fully or partially\./);
  });

  it('--search returns exactly the page search_tools returned to the worker for the same query', async () => {
    const requests = requestsOf(server, workerOf('bill'));
    expect(requests).toHaveLength(SEARCHES.length + 1);
    for (const [i, search] of SEARCHES.entries()) {
      const seen = JSON.parse(resultText(latestToolResults(requests[i + 1]!)[0])) as
        | { results: { name: string; description: string; group: string }[]; total: number; next_page?: number }
        | { no_matches: true };
      const args = ['tools', dir, '--search', search.query ?? '', '--json'];
      if (search.group) args.push('--group', search.group);
      if (search.page) args.push('--page', String(search.page));
      const cli = await runCli(args, { cwd: dir });
      expect(cli.code, cli.stderr).toBe(0);
      const page = JSON.parse(cli.stdout) as { query: string; results: (Listed & { score: number })[]; total: number; next_page?: number };
      expect(page.query).toBe(search.query ?? '');
      if ('no_matches' in seen) {
        expect([search, page.results, page.total]).toEqual([search, [], 0]);
        continue;
      }
      expect([search, page.results.map(({ name, description, group }) => ({ name, description, group }))]).toEqual([search, seen.results]);
      expect([search, page.total, page.next_page]).toEqual([search, seen.total, seen.next_page]);
      for (const r of page.results) expect(r.ref.replace(/\./g, '_')).toBe(r.name);
      const scores = page.results.map((r) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  }, 300_000);

  it('finds the refund tool first, pages a group by 8, and says so when nothing matches', async () => {
    const refund = JSON.parse((await runCli(['tools', dir, '--search', 'refund a payment', '--json'], { cwd: dir })).stdout);
    expect(refund.results[0].name).toBe('tools_refund_payment');
    const group = JSON.parse((await runCli(['tools', dir, '--search', '', '--group', 'billing', '--json'], { cwd: dir })).stdout);
    expect([group.results.length, group.total, group.next_page]).toEqual([8, 10, 2]);
    const none = await runCli(['tools', dir, '--search', 'xyzzy plugh'], { cwd: dir });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('no tools of task bill match "xyzzy plugh"\n');
  });
});
