// inspect --result: a stored tool result (too large for the model's context) shown whole from the
// run's database, as text or --json, with the sessions that may read it; an unknown handle is one
// clear line.

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { LOCAL_HTTP, commanderOf, fakeModelBlock, openRunDb, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

const BODY = Array.from({ length: 4000 }, (_, i) => `row ${String(i).padStart(5, '0')} value=${i * 7}`).join('\n');

describe('inspect --result', () => {
  let pages: Server;
  let server: FakeModelServer;
  let dir: string;
  let runId: string;
  let handle: string;

  beforeAll(async () => {
    pages = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(BODY);
    });
    const url = await listenLocal(pages);
    const turns = turnScript({
      [commanderOf('t')]: [callAgent('worker', 'Fetch the rows.'), (req) => taskComplete(lastToolResult(req).slice(0, 60))],
      [workerOf('t')]: [toolCall('builtins_http_get', { url: `${url}/rows` }), (req) => ({ text: `Stored as ${/res_[0-9a-f]{16}/.exec(lastToolResult(req))?.[0]}.` })],
    });
    server = await startFakeModelServer({ respond: turns.respond });
    dir = writeProject({
      'mission.hcl': `${LOCAL_HTTP}${fakeModelBlock(server)}
mission "m" {
  commander { model = models.fake.claude_sonnet_4_6 }
  agent_defaults {
    tool_response {
      max_tokens = 1000
    }
  }
  task "t" {
    objective = "Fetch."
    tools     = [builtins.http.get]
    discovery = false
  }
}
`,
    });
    const run = await runCli(['run', dir], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(turns.problems).toEqual([]);
    const db = openRunDb(dir);
    try {
      runId = db.prepare('SELECT id FROM runs').pluck().get() as string;
      handle = db.prepare('SELECT handle FROM stored_results').pluck().get() as string;
    } finally {
      db.close();
    }
  }, 120_000);

  afterAll(async () => {
    await server.close();
    await closeServer(pages);
  });

  it('shows the whole stored result, with who may read it', async () => {
    const shown = await runCli(['inspect', runId, '--result', handle], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^stored result ${handle} · text · [\\d,]+ bytes · readable by t/commander, t/worker\\n`));
    expect(shown.stdout).toContain('row 00000 value=0\n');
    expect(shown.stdout).toContain(`row 03999 value=${3999 * 7}\n`);
  });

  it('prints the payload as JSON with --json', async () => {
    const shown = await runCli(['inspect', runId, '--result', handle, '--json'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    const doc = JSON.parse(shown.stdout) as { handle: string; payload: { format: string; text: string } };
    expect(doc.handle).toBe(handle);
    expect(doc.payload.format).toBe('text');
    expect(doc.payload.text.endsWith(BODY)).toBe(true);
  });

  it('refuses an unknown handle in one line', async () => {
    const shown = await runCli(['inspect', runId, '--result', 'res_0000000000000000'], { cwd: dir });
    expect(shown.code).toBe(2);
    expect(shown.stderr.trim().split('\n')).toHaveLength(1);
    expect(shown.stderr).toContain(`run ${runId} has no stored result res_0000000000000000`);
  });
});
