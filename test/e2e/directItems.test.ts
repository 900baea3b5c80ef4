// End-to-end: an iterated direct task over 50 items, each item one worker session (a POST to a
// counting server, then submit_output and task_complete), killed with SIGKILL mid fan-out and resumed:
// every item completes, no item's side effect happens twice (the ledger's calls with a stored result
// happened exactly once), no completed item asks the model again, no model reply is stored twice, and
// no commander session exists.

import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ANTHROPIC_MODEL, LOCAL_HTTP, fakeModelBlock, openRunDb, removeProjects, runThenResume, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';

vi.setConfig({ testTimeout: 300_000 });
afterAll(removeProjects);

const ITEMS = 50;
const KILL_AT = 25;

function project(modelBlock: string): string {
  const items = Array.from({ length: ITEMS }, (_, i) => `{ n = ${i} }`).join(', ');
  return writeProject({
    'main.hcl': `${LOCAL_HTTP}${modelBlock}
mission "fan" {
  max_parallel = 10
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "things" {
    items  = [${items}]
    schema = {
      n = integer("which thing", true)
    }
  }
  task "mark" {
    direct    = true
    objective = "Mark thing \${item.n}."
    tools     = [builtins.http.post]
    output = {
      marked = bool("whether the thing was marked", true)
    }
    iterator {
      dataset           = datasets.things
      parallel          = true
      concurrency_limit = 10
    }
  }
}
`,
  });
}

const itemOf = (request: FakeRequest): number => Number(/worker agent of task "mark\[(\d+)\]"/.exec(request.canonical.system)?.[1] ?? -1);

function itemRows(dir: string): { idx: number; status: string; attempt: number }[] {
  const db = openRunDb(dir);
  try {
    return db.prepare("SELECT idx, status, attempt FROM task_items WHERE task = 'mark' ORDER BY idx").all() as { idx: number; status: string; attempt: number }[];
  } finally {
    db.close();
  }
}

describe('an iterated direct task: kill -9 mid fan-out, then resume', () => {
  it('completes every item once: no side effect twice, no completed item asked again, no reply stored twice', async () => {
    const counter = await startCounter();
    let child: ChildProcess | undefined;
    let killed = false;
    let dir = '';
    let completedAtKill = new Set<number>();
    const askedAfterKill: number[] = [];
    const server = await startFakeModelServer({
      respond: (request): FakeReply => {
        const index = itemOf(request);
        if (index < 0) return { status: 400, errorMessage: 'not an item' };
        const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
        if (killed) askedAfterKill.push(index);
        else if (index === KILL_AT && turn === 0) {
          killed = true;
          completedAtKill = new Set(itemRows(dir).filter((r) => r.status === 'completed').map((r) => r.idx));
          child?.kill('SIGKILL');
          return { text: 'never read', delayMs: 5_000 };
        }
        if (turn === 0) return { delayMs: 20, toolCalls: [{ name: 'builtins_http_post', input: { url: `${counter.url}/mark`, body: `item-${index}`, content_type: 'text' } }] };
        return {
          delayMs: 20,
          toolCalls: [
            { name: 'submit_output', input: { output: { marked: true } } },
            { name: 'task_complete', input: { summary: `thing ${index} marked` } },
          ],
        };
      },
    });
    try {
      dir = project(fakeModelBlock(server));
      const { first, resumed } = await runThenResume(dir, (c) => (child = c));
      expect(killed).toBe(true);
      expect(first.signal).toBe('SIGKILL');
      expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
      expect(completedAtKill.size).toBeGreaterThan(0);
      expect(completedAtKill.size).toBeLessThan(ITEMS);

      // Every item completed in its first attempt, with its output.
      expect(itemRows(dir).map((r) => `${r.idx}:${r.status}:${r.attempt}`)).toEqual(Array.from({ length: ITEMS }, (_, i) => `${i}:completed:1`));
      // No completed item asked the model again.
      expect(askedAfterKill.filter((i) => completedAtKill.has(i))).toEqual([]);

      const db = openRunDb(dir);
      try {
        // One worker session per item, none of a commander.
        const sessions = db.prepare('SELECT task_name AS task, agent, role FROM sessions').all() as { task: string; agent: string; role: string }[];
        expect(sessions).toHaveLength(ITEMS);
        expect(sessions.every((s) => s.agent === 'worker' && s.role === 'agent')).toBe(true);
        expect(sessions.map((s) => s.task).sort()).toEqual(Array.from({ length: ITEMS }, (_, i) => `mark[${i}]`).sort());
        // Each session holds its two model replies once (an interrupted session was continued, not redone).
        const replies = db
          .prepare("SELECT s.task_name AS task, count(m.id) AS n FROM sessions s LEFT JOIN messages m ON m.session_id = s.id AND m.role = 'assistant' GROUP BY s.id")
          .all() as { task: string; n: number }[];
        expect(replies.filter((r) => r.n !== 2)).toEqual([]);
        const turns = db.prepare('SELECT count(*) FROM model_turns').pluck().get() as number;
        expect(turns).toBe(ITEMS * 2);
        // Side effects: never twice; each POST whose result the ledger holds happened exactly once.
        expect(new Set(counter.marks).size).toBe(counter.marks.length);
        const calls = db
          .prepare("SELECT s.task_name AS task, c.result_json AS result FROM tool_calls c JOIN sessions s ON s.id = c.session_id WHERE c.tool_ref = 'builtins.http.post'")
          .all() as { task: string; result: string }[];
        expect(calls).toHaveLength(ITEMS);
        const marked = calls.filter((c) => c.result.includes('marked'));
        // Only a call in flight at the kill may have lost its result (reported to the model as interrupted).
        expect(marked.length).toBeGreaterThan(ITEMS - 10);
        for (const call of marked) {
          const index = Number(/\[(\d+)\]/.exec(call.task)![1]);
          expect(counter.marks.filter((m) => m === `item-${index}`), call.task).toHaveLength(1);
        }
        const outputs = db.prepare("SELECT output_json FROM task_items WHERE task = 'mark'").pluck().all() as string[];
        expect(outputs.every((o) => JSON.parse(o).marked === true)).toBe(true);
      } finally {
        db.close();
      }
    } finally {
      await server.close();
      await counter.close();
    }
  });
});
