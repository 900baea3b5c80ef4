// End-to-end: a commander's long session compacted through the CLI keeps a "Commander State" section
// in its head (as Go's compaction does): the agents it called, with what and with what outcome, and
// what is still open. It is stored with the cut, so after kill -9 the resumed run sends the very
// request the killed process had sent.

import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { commanderOf, fakeModelBlock, removeProjects, requestsOf, workerOf, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete } from '../support/turnScript.js';

afterAll(removeProjects);

const CALLS = 24;
const ANSWER_BYTES = 2_000;

const reported = (req: FakeRequest) => ({ inputTokens: Math.ceil(JSON.stringify(req.body).length / 4), outputTokens: 10 });

/** The commander asks for parts 1…CALLS one by one (the part it is at is read from the newest answer), then completes. */
function commanderReply(req: FakeRequest): FakeReply {
  const done = Number(/answer to part (\d+)/.exec(lastToolResult(req))?.[1] ?? 0);
  const reply = done >= CALLS ? taskComplete(`All ${CALLS} parts answered.`) : callAgent('worker', `Work on part ${done + 1} of the archive.`);
  return { ...reply, usage: reported(req) };
}

/** The worker answers its newest instruction at length. */
function workerReply(req: FakeRequest): FakeReply {
  const texts = req.canonical.messages.filter((m) => m.role === 'user').flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
  const part = Number(/part (\d+) of the archive/.exec(texts.at(-1) ?? '')?.[1] ?? 0);
  return { text: `answer to part ${part}: ${'details '.repeat(ANSWER_BYTES / 8)}`, usage: reported(req) };
}

const headText = (req: FakeRequest): string => {
  const first = req.canonical.messages[0]!.parts[0];
  return first?.type === 'text' ? first.text : '';
};

describe("a commander's compaction", () => {
  it('keeps the Commander State in its head, and resume after kill -9 sends the same request', async () => {
    let child: ChildProcess | undefined;
    let killedAt: FakeRequest | undefined;
    const server = await startFakeModelServer({
      respond: (req) => {
        if (!req.canonical.system.includes(commanderOf('read'))) return workerReply(req);
        if (killedAt === undefined && headText(req).startsWith('<COMPACTED_CONTEXT>')) {
          killedAt = req;
          child?.kill('SIGKILL');
        }
        return commanderReply(req);
      },
    });
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander {
    model = models.fake.claude_sonnet_4_6
    compaction {
      token_limit    = 6000
      turn_retention = 2
    }
  }
  task "read" {
    objective = "Answer every part of the archive."
    tools     = [builtins.utils.current_time]
    discovery = false
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 180_000, onSpawn: (c) => (child = c) });
      expect(first.signal, first.stderr).toBe('SIGKILL');
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      const resumed = await runCli(['resume', runId!], { cwd: dir, timeoutMs: 180_000 });
      expect(resumed.code, resumed.stderr).toBe(0);

      const commander = requestsOf(server, commanderOf('read'));
      const again = commander[commander.indexOf(killedAt!) + 1]!;
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(killedAt!.body));

      const head = headText(killedAt!);
      expect(head).toContain('## Task\nAnswer every part of the archive.');
      expect(head).toMatch(/## Commander State\nAgents called \(\d+\):\n- worker \(task: "Work on part 1 of the archive\."\) → answered: "answer to part 1: details details/);
      expect(head).toContain('Still open: task_complete.');
      // Every call the compaction dropped is listed, in order.
      const listed = [...head.matchAll(/- worker \(task: "Work on part (\d+) of the archive\."\)/g)].map((m) => Number(m[1]));
      expect(listed.length).toBeGreaterThan(1);
      expect(listed).toEqual(listed.map((_, i) => i + 1));
      // Later compactions list more calls; the last request holds the state of all but the kept turns.
      const last = commander.filter((r) => headText(r).includes('## Commander State')).at(-1)!;
      expect([...headText(last).matchAll(/- worker \(task:/g)].length).toBeGreaterThan(listed.length);
      expect(requestsOf(server, workerOf('read')).length).toBeGreaterThanOrEqual(CALLS);
    } finally {
      await server.close();
    }
  }, 300_000);
});
