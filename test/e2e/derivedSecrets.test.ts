// Values computed from a secret are secret (sensitivity marks through HCL evaluation): a custom HTTP
// tool's header `"Bearer ${vars.t}"`, an MCP server's env `upper(vars.s)` and an objective reading
// `lower(vars.t)`. A server echoes the header back, the MCP server gives its env away (in a result
// and on stderr), and the model repeats its objective: after the run, neither the secrets nor any
// value computed from them is in the SQLite file (with its WAL), the run log, the cassette, the
// `--json` output or `inspect --transcript`; and what the model was shown of the servers' answers
// holds placeholders, not the values.

import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { fakeModelBlock, LOCAL_HTTP, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, firstUserMessage, lastToolResult, taskComplete, turnScript } from '../support/turnScript.js';

const ENV_SERVER = fileURLToPath(new URL('../support/mcpEnvServer.mjs', import.meta.url));
const T = 'Tk9-fQ2x-Alpha';
const S = 'sEcr3t-Mu-Beta';
/** Every form that must not be found: the secrets, and what the config computes from them. */
const FORMS = [T, S, S.toUpperCase(), T.toLowerCase()];

let api: Server;
let apiUrl = '';
const seenAuth: string[] = [];

beforeAll(async () => {
  api = createServer((req, res) => {
    seenAuth.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`you sent authorization: ${req.headers.authorization ?? '(none)'}`);
  });
  apiUrl = await listenLocal(api);
});

afterAll(async () => {
  await closeServer(api);
  removeProjects();
});

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) files(path, out);
    else out.push(path);
  }
  return out;
}

describe('values computed from a secret', () => {
  it('are redacted wherever the secret is: database, run log, cassette, --json, transcript; the model reads placeholders for what servers echo', async () => {
    const script = turnScript({
      'commander of task "t"': [
        callAgent('worker', 'Call both tools.'),
        (req) => taskComplete(`objective was: ${firstUserMessage(req)}; worker said: ${lastToolResult(req)}`),
      ],
      'worker agent of task "t"': [
        { toolCalls: [{ name: 'tools_api', input: { q: '42' } }, { name: 'mcp_keys_env', input: { name: 'MCP_ENV_KEY' } }] },
        (req) => ({ text: `both: ${JSON.stringify(req.canonical.messages.at(-1))}` }),
      ],
    });
    const model = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${LOCAL_HTTP}${fakeModelBlock(model)}
variable "t" {
  secret = true
}
variable "s" {
  secret = true
}
tool "api" {
  implements = builtins.http.get
  inputs     = { q = string("query", true) }
  url        = "${apiUrl}/search?q=\${inputs.q}"
  headers    = { Authorization = "Bearer \${vars.t}" }
}
mcp "keys" {
  command = "${process.execPath}"
  args    = ["${ENV_SERVER}"]
  env     = { MCP_ENV_KEY = upper(vars.s) }
}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "t" {
    objective = "Look up ticket 42 (key \${lower(vars.t)}) with both tools."
    tools     = [tools.api, mcp.keys.env]
  }
}
`,
      });
      const env = { SQUADRON_VAR_t: T, SQUADRON_VAR_s: S };
      const run = await runCli(['run', dir, '--json', '--record', 'tape.jsonl'], { cwd: dir, env, timeoutMs: 200_000 });
      expect(script.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      // The values really were computed and used: the server got the header, the model the objective.
      expect(seenAuth).toContain(`Bearer ${T}`);
      expect(firstUserMessage(model.requests[0]!)).toContain(T.toLowerCase());
      const report = JSON.parse(run.stdout) as { run_id: string; tasks: Record<string, { summary: string }> };
      expect(report.tasks['t']!.summary).toContain('[REDACTED:vars.t#1]');

      // What the model read of the two answers: placeholders (the echo and the MCP server's env).
      const shown = model.requests.map((r) => JSON.stringify(r.body)).join('\n');
      expect(shown).toContain('you sent authorization: Bearer [REDACTED:vars.t]');
      expect(shown).toContain('MCP_ENV_KEY=[REDACTED:vars.s#1]');
      expect(shown.includes(S.toUpperCase())).toBe(false);

      const inspect = await runCli(['inspect', report.run_id, '--transcript', '--json'], { cwd: dir });
      expect(inspect.code, inspect.stderr).toBe(0);
      const atRest = files(join(dir, '.squadron')).concat(join(dir, 'tape.jsonl'));
      expect(atRest.some((f) => f.endsWith('squadron.db'))).toBe(true);
      expect(atRest.some((f) => f.includes('logs'))).toBe(true);
      expect(existsSync(join(dir, 'tape.jsonl'))).toBe(true);
      for (const form of FORMS) {
        for (const file of atRest) expect(readFileSync(file).includes(Buffer.from(form)), `${file} holds ${form}`).toBe(false);
        expect(run.stdout.includes(form) || run.stderr.includes(form), `run output holds ${form}`).toBe(false);
        expect(inspect.stdout.includes(form), `inspect holds ${form}`).toBe(false);
      }
    } finally {
      await model.close();
    }
  }, 300_000);

  it('a builtin HTTP error names its URL without the query, the user info, or any secret or computed value in the path', async () => {
    // A space, a non-ASCII letter and a colon: the URL's own path encoding keeps `:` as it is.
    const P = 'sé cret:42x';
    const pathForm = (text: string): string => new URL(`http://h/${text}`).pathname.slice(1);
    const url = `http://user:${encodeURIComponent(P)}@127.0.0.1:1/v1/${encodeURIComponent(P)}/${pathForm(P.toUpperCase())}/items?key=${encodeURIComponent(P)}`;
    let result = '';
    const script = turnScript({
      'commander of task "t"': [callAgent('worker', 'Fetch it.'), (req) => taskComplete(`worker said: ${lastToolResult(req)}`)],
      'worker agent of task "t"': [
        { toolCalls: [{ name: 'builtins_http_get', input: { url } }] },
        (req) => {
          result = lastToolResult(req);
          return { text: `the call said: ${result}` };
        },
      ],
    });
    const model = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({
        'mission.hcl': `${LOCAL_HTTP}${fakeModelBlock(model)}
variable "p" {
  secret = true
}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "t" {
    objective = "Fetch the items under \${upper(vars.p)}."
    tools     = [builtins.http.get]
  }
}
`,
      });
      const run = await runCli(['run', dir, '--json'], { cwd: dir, env: { SQUADRON_VAR_p: P }, timeoutMs: 200_000 });
      expect(script.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      // What the model read: the error, its URL's path masked in both its raw and computed forms.
      expect(result).toMatch(/^HTTP GET http:\/\/\*\*\*@127\.0\.0\.1:1\/v1\/\[REDACTED:vars\.p\]\/\[REDACTED:vars\.p#1\]\/items\?… failed: .*ECONNREFUSED/);
      const forms = [P, encodeURIComponent(P), pathForm(P), P.toUpperCase(), pathForm(P.toUpperCase()), encodeURIComponent(P.toUpperCase())];
      const atRest = files(join(dir, '.squadron'));
      for (const form of forms) {
        expect(result.includes(form), `the model read ${form}`).toBe(false);
        for (const file of atRest) expect(readFileSync(file).includes(Buffer.from(form)), `${file} holds ${form}`).toBe(false);
        expect(run.stdout.includes(form) || run.stderr.includes(form), `run output holds ${form}`).toBe(false);
      }
    } finally {
      await model.close();
    }
  }, 300_000);
});
