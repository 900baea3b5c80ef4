// A secret variable used in a custom tool's header, through a real `squadron run` (built CLI, fake
// model server, real HTTP server): the token reaches the HTTP server, while the tool-call ledger
// stores exactly the model's input and no file the run leaves behind holds the token.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../../support/cli.js';
import { LOCAL_HTTP, fakeModelBlock, openRunDb, writeProject } from '../../support/e2eProject.js';
import { startFakeModelServer } from '../../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../../support/turnScript.js';
import { closeServer, listenLocal } from '../../support/localServer.js';

const TOKEN = 'tok-7f3a9c1e5b2d4f60';

let api: Server;
let apiUrl = '';
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  api = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
    res.writeHead(authorized ? 200 : 401, { 'content-type': 'text/plain' });
    res.end(authorized ? 'ticket 42: printer on fire' : 'unauthorized');
  });
  apiUrl = await listenLocal(api);
});

afterAll(async () => {
  await closeServer(api);
});

/** Every file below `dir` (the database, its WAL, the run logs). */
function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else out.push(path);
  }
  return out;
}

test('a secret header reaches the HTTP server, the ledger keeps only the model input, nothing stored holds the secret', async () => {
  const script = turnScript({
    'commander of task "triage"': [callAgent('worker', 'Look up ticket 42.'), (req) => taskComplete(`Worker says: ${lastToolResult(req)}`)],
    'worker agent of task "triage"': [toolCall('tools_tickets', { query: '42' }), (req) => ({ text: lastToolResult(req) })],
  });
  const server = await startFakeModelServer({ respond: script.respond });
  try {
    const dir = writeProject({
      'mission.hcl': `${LOCAL_HTTP}${fakeModelBlock(server)}
variable "api_token" {
  secret = true
}

tool "tickets" {
  implements  = builtins.http.get
  description = "Look up a ticket"
  inputs = {
    query = string("Ticket number", true)
  }
  url     = "${apiUrl}/tickets?q=\${inputs.query}"
  headers = { Authorization = "Bearer \${vars.api_token}" }
}

mission "support" {
  commander { model = models.fake.claude_sonnet_5_5 }
  task "triage" {
    objective = "Find out what ticket 42 is about"
    tools     = [tools.tickets]
  }
}
`,
    });
    const run = await runCli(['run', dir, '--json'], { cwd: dir, env: { SQUADRON_VAR_api_token: TOKEN } });
    expect(script.problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).tasks.triage.summary).toContain('printer on fire');

    // The server saw the computed fields, the secret included.
    expect(seen.at(-1)).toMatchObject({ url: '/tickets?q=42', headers: { authorization: `Bearer ${TOKEN}` } });

    // The ledger holds what the model wrote, not the evaluated fields.
    const db = openRunDb(dir);
    try {
      const calls = db.prepare("SELECT api_name, input_json, status FROM tool_calls WHERE tool_ref = 'tools.tickets'").all();
      expect(calls).toEqual([{ api_name: 'tools_tickets', input_json: '{"query":"42"}', status: 'completed' }]);
    } finally {
      db.close();
    }

    // Nothing the run left on disk, nor anything the model was sent, contains the token.
    const stored = files(join(dir, '.squadron'));
    expect(stored.some((f) => f.endsWith('squadron.db'))).toBe(true);
    expect(stored.filter((f) => readFileSync(f).includes(TOKEN))).toEqual([]);
    expect(server.requests.filter((r) => JSON.stringify(r.body).includes(TOKEN)).map((r) => r.n)).toEqual([]);
  } finally {
    await server.close();
  }
});
