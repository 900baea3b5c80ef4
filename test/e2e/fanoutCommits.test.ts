// What one item of a parallel fan-out costs in commits, counted where commits land (the write-ahead
// log's commit frames, test/support/walCommits.ts). The test holds the database open so each run
// leaves its commits in the log; two runs of the same mission over 2 and 8 items differ by exactly
// what 6 items cost. An item whose commander completes in one turn (submit_output + task_complete) is
// two commits: the item marked running with its session and instruction; then the model's reply with
// the turn's results, the session's status and the item's completion (those two calls are bookkeeping
// that touches nothing outside the process, so the reply need not be durable before they run).

import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/index.js';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { firstUserMessage } from '../support/turnScript.js';
import { commitsDuring, leaseTablePages } from '../support/walCommits.js';

const COMMITS_PER_ITEM = 2;

let server: FakeModelServer;
let dir: string;
let dbPath: string;
let held: Store;
let leasePages: ReadonlySet<number>;

beforeAll(async () => {
  server = await startFakeModelServer({
    respond: (request) => {
      const id = Number(/ticket (\d+)/.exec(firstUserMessage(request))?.[1] ?? -1);
      return {
        toolCalls: [
          { name: 'submit_output', input: { output: { priority: id % 2 === 0 ? 'high' : 'normal' } } },
          { name: 'task_complete', input: { summary: `ticket ${id} triaged` } },
        ],
      };
    },
  });
  dir = writeProject({
    'mission.hcl': `${fakeModelBlock(server)}
mission "support" {
  commander { model = ${ANTHROPIC_MODEL} }
  max_parallel = 4
  input "tickets" {
    type = "list"
  }
  dataset "tickets" {
    bind_to = inputs.tickets
    schema = {
      id = integer("ticket id", true)
    }
  }
  task "triage" {
    objective = "Triage ticket \${item.id}"
    tools     = [builtins.files.read]
    output = {
      priority = string("high or normal", true)
    }
    iterator {
      dataset           = datasets.tickets
      parallel          = true
      concurrency_limit = 4
    }
  }
}
`,
  });
  dbPath = join(dir, 'runs.db');
  // Held open for the whole file: the CLI's close then leaves the log in place.
  held = openStore(dbPath);
  leasePages = leaseTablePages(dbPath); // heartbeat commits are not counted
  expect(leasePages.size).toBeGreaterThan(0);
});

afterAll(async () => {
  await held.close();
  await server.close();
  removeProjects();
});

/** Commits of one run over `n` items; checks every item completed with its output and events. */
async function commitsOfRun(n: number): Promise<number> {
  const file = join(dir, `tickets-${n}.json`);
  writeFileSync(file, JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i }))));
  let result: Awaited<ReturnType<typeof runCli>> | undefined;
  const commits = await commitsDuring(dbPath, async () => {
    result = await runCli(['run', dir, '--db', dbPath, '--json', '-i', `tickets=@${file}`], { cwd: dir });
  }, leasePages);
  expect(result?.code, result?.stderr).toBe(0);
  const report = JSON.parse(result!.stdout) as { run_id: string; status: string };
  expect(report.status).toBe('completed');
  const db = new Database(dbPath, { readonly: true });
  try {
    const items = db.prepare("SELECT idx, status, output_json FROM task_items WHERE run_id = ? ORDER BY idx").all(report.run_id) as { idx: number; status: string; output_json: string }[];
    expect(items.map((i) => [i.idx, i.status, JSON.parse(i.output_json)])).toEqual(Array.from({ length: n }, (_, i) => [i, 'completed', { priority: i % 2 === 0 ? 'high' : 'normal' }]));
    // Each item's session is closed, and its events are all stored (written in the item's commits).
    const sessions = db.prepare("SELECT status, COUNT(*) AS n FROM sessions WHERE run_id = ? GROUP BY status").all(report.run_id);
    expect(sessions).toEqual([{ status: 'completed', n }]);
    const events = db.prepare("SELECT type, COUNT(*) AS n FROM events WHERE run_id = ? AND type IN ('item.started', 'item.finished', 'session.started', 'session.finished', 'model.turn', 'tool.started', 'tool.finished') GROUP BY type ORDER BY type").all(report.run_id);
    expect(events).toEqual([
      { type: 'item.finished', n },
      { type: 'item.started', n },
      { type: 'model.turn', n },
      { type: 'session.finished', n },
      { type: 'session.started', n },
      { type: 'tool.finished', n: 2 * n },
      { type: 'tool.started', n: 2 * n },
    ]);
    const last = db.prepare("SELECT data_json FROM events WHERE run_id = ? AND type = 'item.finished' ORDER BY id DESC LIMIT 1").pluck().get(report.run_id) as string;
    expect(JSON.parse(last)).toMatchObject({ completed: n, failed: 0, total: n });
  } finally {
    db.close();
  }
  return commits;
}

describe('commits per item of a parallel fan-out', () => {
  it(`stores an item completed in one turn in ${COMMITS_PER_ITEM} commits`, async () => {
    const few = await commitsOfRun(2);
    const many = await commitsOfRun(8);
    const perItem = (many - few) / 6;
    console.log(`commits per fan-out item: ${perItem} (runs: ${few} and ${many} commits)`);
    expect(perItem).toBe(COMMITS_PER_ITEM);
  }, 240_000);
});
