// Hostile JSON and hostile MCP servers through the CLI: JSON nested 100,000 levels from the model,
// from an MCP server or in an -i flag is refused where it enters (the run goes on; the flag exits 2),
// and an MCP server's broken or oversized answers are reported as what they are.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { fakeModelBlock, openRunDb, requestsOf, workerOf } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

const HOSTILE_SERVER = fileURLToPath(new URL('../support/mcpHostileServer.mjs', import.meta.url));

/** The text `{"a": [[[…]]]}` nested `depth` levels, as a hostile model would send it. Built as text:
 *  JSON.stringify recurses and overflows the stack at this depth on Node 22 and 24. */
function deepJson(depth: number): string {
  return `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe('a run meeting deep JSON and a hostile MCP server', () => {
  let server: FakeModelServer;
  let dir = '';
  let run: Awaited<ReturnType<typeof runCli>>;
  const calls = ['mcp_hostile_deep', 'mcp_hostile_pid', 'mcp_hostile_bad_schema', 'mcp_hostile_pid', 'mcp_hostile_huge', 'mcp_hostile_pid'];

  beforeAll(async () => {
    const script = turnScript({
      'commander of task "t"': [callAgent('worker', 'Call everything.'), () => taskComplete('done')],
      'worker agent of task "t"': [{ toolCalls: [{ name: 'mcp_hostile_pid', input: {}, rawArguments: deepJson(100_000) }] }, ...calls.map((name) => toolCall(name, {})), { text: 'all called' }],
    });
    server = await startFakeModelServer({ respond: script.respond });
    dir = tempDir();
    writeFileSync(
      join(dir, 'mission.hcl'),
      `${fakeModelBlock(server)}mcp "hostile" {
  command = "${process.execPath}"
  args    = ["${HOSTILE_SERVER}"]
}
mission "m" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "t" {
    objective = "call the tools"
    tools     = [mcp.hostile.all]
  }
}
`,
    );
    run = await runCli(['run', dir, '--json'], { cwd: dir, timeoutMs: 400_000 });
  }, 600_000);

  afterAll(async () => {
    await server.close();
  });

  /** The tool results the worker was sent, in order (its last request holds them all). */
  function resultsSent(): string[] {
    const texts: string[] = [];
    const worker = requestsOf(server, workerOf('t')).at(-1)!;
    for (const m of (worker.body as { messages: { content: unknown }[] }).messages) {
      if (!Array.isArray(m.content)) continue;
      for (const part of m.content as { type: string; content?: string | { text?: string }[] }[]) {
        if (part.type !== 'tool_result') continue;
        texts.push(typeof part.content === 'string' ? part.content : (part.content ?? []).map((c) => c.text ?? '').join(''));
      }
    }
    return texts;
  }

  it('completes: no overflowed stack, no crashed worker', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('Maximum call stack');
  });

  it('tells the model its arguments were too deep, and an MCP result too deep is an error result', () => {
    const [args, deepResult] = resultsSent();
    expect(args).toContain('nests arrays and objects more than 100 levels deep');
    expect(deepResult).toContain("The server's result nests arrays and objects more than 100 levels deep");
  });

  it('a result that breaks the MCP schema is said so, without a zod dump, and the server is not restarted', () => {
    const results = resultsSent();
    const bad = results[3]!;
    expect(bad).toContain('answered the call to "bad_schema" with a result that does not follow the MCP specification');
    expect(bad).not.toContain('"code":');
    expect(bad.length).toBeLessThan(600);
    // The same process answers before and after it: it was not restarted.
    const before = /pid (\d+)/.exec(results[2]!)?.[1];
    expect(before, results[2]).toBeDefined();
    expect(/pid (\d+)/.exec(results[4]!)?.[1], results[4]).toBe(before);
  });

  it('a 100 MB result is reported as too large, and the server answers the next call', () => {
    const results = resultsSent();
    expect(results[5]).toContain('is larger than 10 MB');
    expect(results[5]).not.toContain('closed the connection');
    const db = openRunDb(dir);
    try {
      const last = db.prepare("SELECT result_json FROM tool_calls WHERE tool_ref = 'mcp.hostile.pid' ORDER BY id DESC LIMIT 1").pluck().get() as string;
      expect(last).toMatch(/pid \d+/);
    } finally {
      db.close();
    }
  });
});

describe('-i with deep JSON', () => {
  it('exits 2 with a message naming the input, not as an internal error', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'mission.hcl'),
      `model "m" {
  provider = "anthropic"
  base_url = "http://127.0.0.1:1"
  api_key  = "test-key-123"
}
mission "m" {
  commander { model = models.m.claude_haiku_4_5 }
  input "x" {
    type = "list"
  }
  task "t" {
    objective = "x"
    tools     = [builtins.utils.current_time]
  }
}
`,
    );
    const nested = `${'['.repeat(30_000)}${']'.repeat(30_000)}`; // one argument may hold 128 KB
    const result = await runCli(['run', dir, '-i', `x=${nested}`], { cwd: dir });
    expect(result.code, result.stderr.slice(0, 500)).toBe(2);
    expect(result.stderr).toContain('input "x": the value nests arrays and objects more than 100 levels deep');
    expect(result.stderr).not.toContain('internal');
  });
});
