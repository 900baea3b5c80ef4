// A stdio MCP server that exits right after answering (one process per call, as some are written):
// the next call starts it again instead of failing; one that never stays up long enough to answer
// is given up after a bounded number of starts, with a clear error the model reads.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { fakeModelBlock, requestsOf, workerOf } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

const HOSTILE_SERVER = fileURLToPath(new URL('../support/mcpHostileServer.mjs', import.meta.url));
const servers: FakeModelServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** The tool results the worker was sent, in order (its last request holds them all). */
function resultsSent(server: FakeModelServer): string[] {
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

describe('a stdio MCP server that exits after each answer', () => {
  it('is started again for each next call: every call is answered, each by a new process', async () => {
    // Never the same call three times in a row (the loop guard would stop the third).
    const calls = ['mcp_hostile_exit_after', 'mcp_hostile_exit_after', 'mcp_hostile_pid', 'mcp_hostile_exit_after', 'mcp_hostile_pid'];
    const script = turnScript({
      'commander of task "t"': [callAgent('worker', 'Call the tools.'), () => taskComplete('done')],
      // One call per turn: each next call is made right after the previous answer arrived.
      'worker agent of task "t"': [...calls.map((name) => toolCall(name, {})), { text: 'all called' }],
    });
    const server = await startFakeModelServer({ respond: script.respond });
    servers.push(server);
    const dir = tempDir();
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
    const run = await runCli(['run', dir, '--json'], { cwd: dir, timeoutMs: 300_000 });
    expect(run.code, run.stderr).toBe(0);
    const results = resultsSent(server);
    expect(results).toHaveLength(5);
    const pid = (r: string | undefined): string | undefined => /^(?:answered by|pid) (\d+)$/.exec(r ?? '')?.[1];
    expect(results.map((r) => r.replace(/\d+/, 'N'))).toEqual(['answered by N', 'answered by N', 'pid N', 'answered by N', 'pid N']);
    // Each call after an exit was answered by a process started for it.
    expect(new Set([pid(results[0]), pid(results[1]), pid(results[3])]).size).toBe(3);
    expect(pid(results[2])).not.toBe(pid(results[1]));
  }, 400_000);
});
