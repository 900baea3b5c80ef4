// Hostile servers and hostile model input through the CLI: redirects that would carry a secret to
// another origin, URLs a model input would rewrite, hosts on this machine or the metadata address,
// and secrets in the forms a URL or a header gives them. All traffic stays on 127.0.0.0/8.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

interface Seen {
  server: 'api' | 'other';
  url: string;
  headers: IncomingHttpHeaders;
}

const seen: Seen[] = [];
let api: Server;
let other: Server;
let apiUrl = '';
let otherUrl = '';

beforeAll(async () => {
  other = createServer((req, res) => {
    seen.push({ server: 'other', url: req.url ?? '', headers: req.headers });
    res.end('landed');
  });
  otherUrl = await listenLocal(other);
  api = createServer((req, res) => {
    seen.push({ server: 'api', url: req.url ?? '', headers: req.headers });
    if (req.url === '/hop') res.writeHead(302, { location: `${otherUrl}/landing` }).end();
    else if (req.url === '/hop-loopback') res.writeHead(302, { location: otherUrl.replace('127.0.0.1', '127.0.0.2') + '/landing' }).end();
    else if (req.url === '/same') res.writeHead(302, { location: '/final' }).end();
    else if (req.url?.startsWith('/echo')) res.end(JSON.stringify(req.headers));
    else res.end(`api ${req.url}`);
  });
  apiUrl = await listenLocal(api);
});

afterAll(async () => {
  removeProjects();
  await closeServer(api);
  await closeServer(other);
});

/** Runs one worker call of `tool` with `input`; answers the task with the tool's result. */
async function runOneCall(hcl: (model: string) => string, tool: string, input: unknown, env: Record<string, string> = {}, extraArgs: string[] = []) {
  const script = turnScript({
    'commander of task "t"': [callAgent('worker', 'Call the tool.'), (req) => taskComplete(`result: ${lastToolResult(req)}`)],
    'worker agent of task "t"': [toolCall(tool, input), (req) => ({ text: lastToolResult(req) })],
  });
  const server = await startFakeModelServer({ respond: script.respond });
  try {
    const dir = writeProject({ 'mission.hcl': hcl(fakeModelBlock(server)) });
    const run = await runCli(['run', dir, '--json', ...extraArgs], { cwd: dir, env });
    expect(script.problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    const db = (await import('../support/e2eProject.js')).openRunDb(dir);
    let result: string;
    try {
      result = (db.prepare('SELECT result_json FROM tool_calls WHERE api_name = ?').get(tool.replace(/\./g, '_')) as { result_json: string }).result_json;
    } finally {
      db.close();
    }
    return { dir, run, result, requests: server.requests.map((r) => JSON.stringify(r.body)) };
  } finally {
    await server.close();
  }
}

const mission = (tools: string) => `mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "t" {
    objective = "call it"
    tools     = [${tools}]
  }
}
`;

const TOKEN = 'tok-9f8e7d6c5b4a';

describe('redirects', () => {
  it("a redirect to another origin carries none of the config's headers; the same origin keeps them", async () => {
    seen.length = 0;
    const hcl = (model: string) => `allowed_hosts = ["127.0.0.1"]
${model}variable "token" {
  secret = true
}
tool "hop" {
  implements = builtins.http.get
  inputs     = { path = string("path", true) }
  url        = "${apiUrl}/\${inputs.path}"
  headers    = { X-Api-Key = vars.token, Authorization = "Bearer \${vars.token}" }
}
${mission('tools.hop')}`;
    const { result } = await runOneCall(hcl, 'tools_hop', { path: 'hop' }, { SQUADRON_VAR_token: TOKEN });
    expect(result).toContain('landed');
    const first = seen.find((s) => s.server === 'api')!;
    const landed = seen.find((s) => s.server === 'other')!;
    expect(first.headers['x-api-key']).toBe(TOKEN);
    expect(landed.url).toBe('/landing');
    expect(landed.headers['x-api-key']).toBeUndefined();
    expect(landed.headers.authorization).toBeUndefined();
    expect(landed.headers['user-agent']).toBe('squadron');

    seen.length = 0;
    await runOneCall(hcl, 'tools_hop', { path: 'same' }, { SQUADRON_VAR_token: TOKEN });
    expect(seen.map((s) => [s.url, s.headers['x-api-key']])).toEqual([
      ['/same', TOKEN],
      ['/final', TOKEN],
    ]);
  });
});

describe('custom tool URLs', () => {
  it('an input cannot climb the path or override the fixed query', async () => {
    const hcl = (model: string) => `allowed_hosts = ["127.0.0.1"]
${model}tool "user" {
  implements = builtins.http.get
  inputs     = { id = string("user id", true) }
  url        = "${apiUrl}/users/\${inputs.id}?format=safe"
}
${mission('tools.user')}`;
    for (const [id, path] of [
      ['../../admin/delete_all?x=', '/users/..%2F..%2Fadmin%2Fdelete_all%3Fx%3D?format=safe'],
      ['7?format=evil&role=admin#', '/users/7%3Fformat%3Devil%26role%3Dadmin%23?format=safe'],
    ]) {
      seen.length = 0;
      await runOneCall(hcl, 'tools_user', { id });
      expect(seen.map((s) => s.url)).toEqual([path]);
    }
  });
});

describe('host policy', () => {
  const fetchWith = (allowed: string) => (model: string) => `${allowed}${model}${mission('builtins.http.get')}`;

  it('refuses loopback, a name resolving to it, and the metadata address by default: nothing is sent', async () => {
    seen.length = 0;
    for (const [url, why] of [
      [`${apiUrl}/x`, '127.0.0.1 is a loopback address'],
      [`${apiUrl.replace('127.0.0.1', 'localhost')}/x`, 'localhost resolves to'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
      ['http://[::1]:9/', '::1 is a loopback address'],
    ] as const) {
      const { result } = await runOneCall(fetchWith(''), 'builtins_http_get', { url });
      expect(result, url).toContain('refused: ');
      expect(result, url).toContain(why);
      expect(result).toContain('allowed_hosts');
    }
    expect(seen).toEqual([]);
  });

  it('allowed_hosts lets the listed host through, and a redirect from it to another loopback address is refused', async () => {
    seen.length = 0;
    const ok = await runOneCall(fetchWith('allowed_hosts = ["127.0.0.1"]\n'), 'builtins_http_get', { url: `${apiUrl}/page` });
    expect(ok.result).toContain('api /page');
    const hop = await runOneCall(fetchWith('allowed_hosts = ["127.0.0.1"]\n'), 'builtins_http_get', { url: `${apiUrl}/hop-loopback` });
    expect(hop.result).toContain('refused: 127.0.0.2 is a loopback address');
    expect(seen.map((s) => `${s.server} ${s.url}`)).toEqual(['api /page', 'api /hop-loopback']);
  });
});

describe('secrets in transformed forms', () => {
  // A space and a non-ASCII letter: percent-encoding and JSON's \u escape both change it.
  const SECRET = 'sé cret-42';
  const forms = [
    SECRET,
    encodeURIComponent(SECRET),
    new URLSearchParams({ k: SECRET }).toString().slice(2),
    SECRET.toUpperCase(),
    encodeURIComponent(SECRET.toUpperCase()),
    's\\u00e9 cret-42',
    Buffer.from(SECRET).toString('base64'),
  ];

  function files(dir: string, out: string[] = []): string[] {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) files(path, out);
      else out.push(path);
    }
    return out;
  }

  it('a failing URL holding the secret, and a header computed from it that a server echoes, leave no form of it anywhere', async () => {
    const hcl = (model: string) => `allowed_hosts = ["127.0.0.1"]
${model}variable "token" {
  secret = true
}
tool "down" {
  implements = builtins.http.get
  inputs     = { q = string("query", true) }
  url        = "http://127.0.0.1:1/v1/\${vars.token}/items?key=\${vars.token}&q=\${inputs.q}"
}
tool "echo" {
  implements = builtins.http.get
  inputs     = { q = string("query", true) }
  url        = "${apiUrl}/echo?q=\${inputs.q}"
  headers    = { X-Upper = upper(vars.token), X-Auth = "Bearer \${vars.token}" }
}
${mission('tools.down, tools.echo')}`;
    const script = turnScript({
      'commander of task "t"': [callAgent('worker', 'Call both.'), (req) => taskComplete(`result: ${lastToolResult(req)}`)],
      'worker agent of task "t"': [
        { toolCalls: [{ name: 'tools_down', input: { q: 'a' } }, { name: 'tools_echo', input: { q: 'b' } }] },
        (req) => ({ text: `both: ${JSON.stringify(req.canonical.messages.at(-1))}` }),
      ],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = writeProject({ 'mission.hcl': hcl(fakeModelBlock(server)) });
      const run = await runCli(['run', dir, '--json', '--record', 'tape.json'], { cwd: dir, env: { SQUADRON_VAR_token: SECRET } });
      expect(script.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      // The echo server really got the computed header (so the mask had something to hide).
      expect(seen.some((s) => s.headers['x-upper'] === SECRET.toUpperCase())).toBe(true);
      const sent = server.requests.map((r) => JSON.stringify(r.body)).join('\n');
      expect(sent).toContain('ECONNREFUSED');
      expect(sent).toContain('[REDACTED:vars.token]');
      const inspected = await runCli(['inspect', JSON.parse(run.stdout).run_id, '--transcript', '--json'], { cwd: dir, env: { SQUADRON_VAR_token: SECRET } });
      const stored = files(dir).filter((f) => !f.endsWith('mission.hcl'));
      expect(stored.some((f) => f.endsWith('tape.json'))).toBe(true);
      for (const form of forms) {
        expect(stored.filter((f) => readFileSync(f).includes(form)), form).toEqual([]);
        const out = run.stdout + run.stderr;
        expect(out.includes(form), `${form}: ${out.slice(Math.max(0, out.indexOf(form) - 300), out.indexOf(form) + 100)}`).toBe(false);
        const ctx = (text: string) => text.slice(Math.max(0, text.indexOf(form) - 300), text.indexOf(form) + 100);
        expect(inspected.stdout.includes(form), `inspect: ${ctx(inspected.stdout)}`).toBe(false);
        expect(sent.includes(form), `model: ${ctx(sent)}`).toBe(false);
      }
    } finally {
      await server.close();
    }
  });
});
