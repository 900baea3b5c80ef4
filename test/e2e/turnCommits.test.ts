// What making a model turn durable costs, counted where commits land: the commit frames of the
// database's write-ahead log (test/support/walCommits.ts). The test holds the database open, so each
// `squadron run` leaves its commits in the log; two runs that differ only in how many tool-calling
// turns the worker takes differ by exactly what those turns cost. A turn is two commits: the reply
// (with its usage, its `model.turn` event and the ledger starts of its calls with their events, before
// any tool runs) and the results (with the tool_results message).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/index.js';
import { runCli } from '../support/cli.js';
import { fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, turnScript, type TurnReply } from '../support/turnScript.js';
import { commitsDuring, leaseTablePages } from '../support/walCommits.js';

const COMMITS_PER_TURN = 2;
const TIME = 'builtins_utils_current_time';

let server: FakeModelServer;
let respond: (request: FakeRequest) => FakeReply = () => ({ text: 'unset' });
let dir: string;
let dbPath: string;
let held: Store;
let leasePages: ReadonlySet<number>;

beforeAll(async () => {
  server = await startFakeModelServer({ respond: (request) => respond(request) });
  dir = writeProject({
    'mission.hcl': `${fakeModelBlock(server)}\nmission "m" {\n  commander { model = models.fake.claude_haiku_4_5 }\n  task "t" {\n    objective = "tell the time"\n    tools     = [builtins.utils.current_time]\n  }\n}\n`,
  });
  dbPath = join(dir, 'runs.db');
  // Created here and held open for the whole file: the CLI's close then leaves the log in place.
  held = openStore(dbPath);
  leasePages = leaseTablePages(dbPath); // heartbeat commits are not counted
  expect(leasePages.size).toBeGreaterThan(0);
});

afterAll(async () => {
  await held.close();
  await server.close();
  removeProjects();
});

/** Commits of one `squadron run` whose worker takes `turns` turns of `calls` parallel calls each, then answers. */
async function commitsOfRun(turns: number, calls: number): Promise<number> {
  // A different zone per call: identical calls in a row would meet the loop guard (docs/concepts/spend-control.md).
  const worker: TurnReply[] = Array.from({ length: turns }, (_, t) => ({ toolCalls: Array.from({ length: calls }, (_, i) => ({ name: TIME, input: { timezone: `Etc/GMT+${t * calls + i}` } })) }));
  worker.push({ text: 'It is now.' });
  const script = turnScript({
    'commander of task "t"': [callAgent('worker', 'Tell the time.'), taskComplete('Told the time.')],
    'worker agent of task "t"': worker,
  });
  respond = script.respond;
  let result: Awaited<ReturnType<typeof runCli>> | undefined;
  const commits = await commitsDuring(dbPath, async () => {
    result = await runCli(['run', dir, '--db', dbPath, '--json'], { cwd: dir });
  }, leasePages);
  expect(script.problems).toEqual([]);
  expect(result?.code, result?.stderr).toBe(0);
  expect((JSON.parse(result!.stdout) as { status: string }).status).toBe('completed');
  return commits;
}

describe('commits per model turn', () => {
  for (const calls of [1, 3]) {
    it(`stores a turn with ${calls} tool call${calls > 1 ? 's' : ''} in ${COMMITS_PER_TURN} commits`, async () => {
      const few = await commitsOfRun(1, calls);
      const many = await commitsOfRun(4, calls);
      const perTurn = (many - few) / 3;
      console.log(`commits per turn with ${calls} tool call(s): ${perTurn} (runs: ${few} and ${many} commits)`);
      expect(perTurn).toBe(COMMITS_PER_TURN);
    }, 240_000);
  }
});
