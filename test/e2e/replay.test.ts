// Replay through the CLI: a cassette recorded with --record plays back with --replay even when the
// tools return something else this time (ids, times), because replay matches what the model said
// and the tools it called, not what the tools returned; a replayed run costs nothing.

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { LOCAL_HTTP, ANTHROPIC_MODEL, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

let site: Server;
let siteUrl = '';
let orders = 0;

beforeAll(async () => {
  // Every call returns a new order id: a tool result that is never the same twice.
  site = createServer((_req, res) => {
    orders += 1;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`order ${randomUUID()} created at ${new Date().toISOString()}`);
  });
  siteUrl = await listenLocal(site);
});

afterAll(async () => {
  await closeServer(site);
  removeProjects();
});

describe('--record then --replay', () => {
  it('replays a mission whose tool output differs from the recording, with real tools and no cost', async () => {
    const script = turnScript({
      'commander of task "order"': [callAgent('worker', `Create an order at ${siteUrl}/orders.`), (req) => taskComplete(`Worker said: ${JSON.parse(lastToolResult(req)).answer}`)],
      'worker agent of task "order"': [toolCall('builtins_http_get', { url: `${siteUrl}/orders` }), (req) => ({ text: `Created: ${lastToolResult(req).split('\n').pop()}` })],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${LOCAL_HTTP}${fakeModelBlock(server)}
mission "shop" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "order" {
    objective = "Create one order"
    tools     = [builtins.http.get]
  }
}
`,
      });
      const cassette = join(dir, 'shop.jsonl');
      const recorded = await runCli(['run', dir, '--json', '--record', cassette], { cwd: dir });
      expect(recorded.code, recorded.stderr).toBe(0);
      expect(script.problems).toEqual([]);
      const live = JSON.parse(recorded.stdout);
      expect(live.usage.cost_usd).toBeGreaterThan(0);
      const modelCalls = server.requests.length;
      const ordersBefore = orders;

      const replayed = await runCli(['run', dir, '--json', '--replay', cassette], { cwd: dir });
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      const doc = JSON.parse(replayed.stdout);
      expect(doc.status).toBe('completed');
      // The model's side came from the cassette…
      expect(server.requests.length).toBe(modelCalls);
      expect(doc.tasks.order.summary).toBe(live.tasks.order.summary);
      // …while the tool really ran again and returned a different order id than the recording holds.
      expect(orders).toBe(ordersBefore + 1);
      expect(doc.usage.model_turns).toBe(live.usage.model_turns);
      expect(doc.usage.cost_usd).toBe(0);

      const human = await runCli(['run', dir, '--replay', cassette], { cwd: dir });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain('· $0 (replayed) ·');
    } finally {
      await server.close();
    }
  }, 180_000);
});
