// End-to-end: `squadron run` through the built CLI against the fake model server (real Anthropic and
// OpenAI wire formats) and a real local HTTP server for the worker's tool.

import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { LOCAL_HTTP, ANTHROPIC_MODEL, OPENAI_MODEL, fakeModelBlock } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnReply } from '../support/turnScript.js';
import { closeServer, listenLocal } from '../support/localServer.js';

let site: Server;
let siteUrl = '';

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`the secret word is ${req.url === '/word' ? 'marmalade' : 'unknown'}`);
  });
  siteUrl = await listenLocal(site);
});

afterAll(async () => {
  await closeServer(site);
});

function missionHcl(server: FakeModelServer, provider: 'anthropic' | 'openai', extra = ''): string {
  return `
${LOCAL_HTTP}${fakeModelBlock(server, provider)}
mission "probe" {
  commander { model = ${provider === 'anthropic' ? ANTHROPIC_MODEL : OPENAI_MODEL} }

  task "fetch" {
    objective = "Find the secret word published at ${siteUrl}/word"
    tools     = [builtins.http.get]
  }
  ${extra}
}
`;
}

function fetchScript(): Record<string, TurnReply[]> {
  return {
    'commander of task "fetch"': [
      callAgent('worker', `Fetch ${siteUrl}/word and tell me the secret word.`),
      (req) => taskComplete(`Worker reported: ${JSON.parse(lastToolResult(req)).answer}`),
    ],
    'worker agent of task "fetch"': [
      toolCall('builtins_http_get', { url: `${siteUrl}/word` }),
      (req) => ({ text: `Fetched it: ${lastToolResult(req).split('\n').pop()}` }),
    ],
  };
}

describe.each(['anthropic', 'openai'] as const)('squadron run (%s wire format)', (provider) => {
  it("carries a worker's real tool result into the summary, the --json output and the database", async () => {
    const script = turnScript(fetchScript());
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = tempDir();
      writeFileSync(join(dir, 'mission.hcl'), missionHcl(server, provider));
      const result = await runCli(['run', dir, '--json'], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
      expect(result.code).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc.status).toBe('completed');
      expect(doc.run_id).toMatch(/^run_/);
      expect(doc.tasks.fetch.status).toBe('completed');
      expect(doc.tasks.fetch.summary).toContain('the secret word is marmalade');
      expect(doc.usage.model_turns).toBe(4);

      const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
      const task = db.prepare('SELECT status, summary FROM tasks WHERE run_id = ? AND name = ?').get(doc.run_id, 'fetch') as { status: string; summary: string };
      expect(task.status).toBe('completed');
      expect(task.summary).toContain('marmalade');
      const call = db.prepare("SELECT tool_ref, status, result_json FROM tool_calls WHERE tool_ref = 'builtins.http.get'").get() as { tool_ref: string; status: string; result_json: string };
      expect(call.status).toBe('completed');
      expect(call.result_json).toContain('the secret word is marmalade');
      const sessions = db.prepare('SELECT agent FROM sessions WHERE run_id = ? ORDER BY agent').all(doc.run_id) as { agent: string }[];
      expect(sessions.map((s) => s.agent)).toEqual(['commander', 'worker']);
      const raw = db.prepare('SELECT group_concat(parts_json) AS all_parts FROM messages').get() as { all_parts: string };
      expect(raw.all_parts).not.toContain('test-key-123');
      db.close();
    } finally {
      await server.close();
    }
  });
});

describe('squadron run: refusals and resilience', () => {
  it('refuses a tool the worker does not hold and never executes it', async () => {
    const script = turnScript({
      'commander of task "fetch"': [callAgent('worker', 'Write a file.'), (req) => taskComplete(lastToolResult(req))],
      'worker agent of task "fetch"': [
        toolCall('builtins_files_write', { path: 'pwned.txt', content: 'x' }),
        (req) => ({ text: `Tool said: ${lastToolResult(req)}` }),
      ],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = tempDir();
      writeFileSync(join(dir, 'mission.hcl'), missionHcl(server, 'anthropic'));
      const result = await runCli(['run', dir, '--json', '--workspace', join(dir, 'ws')], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc.tasks.fetch.summary).toContain('Unknown tool \\"builtins_files_write\\"');
      const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
      expect(db.prepare('SELECT COUNT(*) AS n FROM tool_calls WHERE api_name = ?').get('builtins_files_write')).toEqual({ n: 0 });
      db.close();
      const { existsSync } = await import('node:fs');
      expect(existsSync(join(dir, 'ws', 'pwned.txt'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("prints the Anthropic SDK's per-request deprecation warning once per run, not once per call", async () => {
    const script = turnScript({
      'commander of task "t"': [callAgent('helper', 'Say hi.'), () => taskComplete('done')],
      'You are "helper"': [() => ({ text: 'hi' })],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    try {
      const dir = tempDir();
      writeFileSync(
        join(dir, 'mission.hcl'),
        fakeModelBlock(server) +
          `agent "helper" {\n  model = models.fake.claude_opus_4_5\n  personality = "Brief."\n}\n` +
          `mission "m" {\n  commander { model = models.fake.claude_opus_4_5 }\n  agents = [agents.helper]\n  task "t" { objective = "Say hi" }\n}\n`,
      );
      const result = await runCli(['run', dir], { cwd: dir });
      expect(script.problems).toEqual([]);
      expect(result.code).toBe(0);
      expect(server.requests.length).toBe(3);
      // Our own MOD001 warning names the replacement once; the SDK's own text appears once too.
      expect(result.stderr.match(/warning\[MOD001\]/g)).toHaveLength(1);
      expect(result.stderr.match(/The model 'claude-opus-4-5-20251101' is deprecated/g)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
