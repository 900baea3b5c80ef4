// The live view on a terminal: every row fits the terminal's width (80 columns, and narrower), a
// resize redraws it at the new width, and a resumed run's counter goes on from what its earlier
// processes spent.

import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeReply, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { spawnCliInPty } from '../support/ptyCli.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

/** The rows of the live view in what a terminal showed: its header and its task rows, escapes removed. */
function viewRows(screen: string): string[] {
  return screen
    .split(/\x1b\[\d+F\x1b\[J|\r?\n/)
    .map((s) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''))
    .filter((s) => /^(squadron · |  [·▶✓✗■–!] )/.test(s));
}

const LONG = 'a summary that goes on well past the width of any terminal row, '.repeat(3);

describe('the live view on a terminal', () => {
  it('fits every row to the terminal, and redraws at the new width after a resize', async () => {
    let arrived!: () => void;
    const heldArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const turns = turnScript({
      [commanderOf('summarize_the_quarterly_reports')]: [taskComplete(LONG)],
      [commanderOf('publish_the_digest')]: [taskComplete(LONG)],
    });
    // The held task's reply waits for the test: the fake server awaits what respond returns.
    const respond = async (req: FakeRequest): Promise<FakeReply> => {
      if (req.canonical.system.includes(commanderOf('publish_the_digest'))) {
        arrived();
        await held;
      }
      return turns.respond(req);
    };
    await withFakeModelServer(respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "summarize_the_quarterly_reports" {
    objective = "Summarize."
    tools     = [builtins.utils.current_time]
  }
  task "publish_the_digest" {
    objective  = "Publish."
    depends_on = [tasks.summarize_the_quarterly_reports]
    tools      = [builtins.utils.current_time]
  }
}
`,
      });
      const term = spawnCliInPty(['run', dir], { cwd: dir, columns: 80 });
      await heldArrived;
      await term.waitFor('completed');
      const wide = term.screen().length;
      term.resize(44);
      await term.waitFor('squadron · ', wide);
      const narrow = term.screen().length;
      release();
      expect(await term.exited, term.screen()).toBe(0);
      expect(turns.problems).toEqual([]);
      const before = viewRows(term.screen().slice(0, wide));
      const after = viewRows(term.screen().slice(narrow));
      expect(before.some((r) => r.includes('✓ summarize_the_quarterly_reports'.slice(0, 12)))).toBe(true);
      for (const row of before) expect([...row].length, row).toBeLessThan(80);
      expect(before.some((r) => r.endsWith('…'))).toBe(true);
      expect(after.length).toBeGreaterThan(0);
      for (const row of after) expect([...row].length, row).toBeLessThan(44);
    });
  });

  it('counts on resume from what the run had spent before, not from zero', async () => {
    const turns = turnScript({
      [commanderOf('publish')]: [callAgent('worker', 'Write the note'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
      [workerOf('publish')]: [toolCall('builtins_files_write', { path: 'note.txt', content: 'hello' }), (req: FakeRequest) => ({ text: `result: ${lastToolResult(req)}` })],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "publish" {
    objective = "Write the note."
    tools     = [builtins.files.write]
    approval  = [builtins.files.write]
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir });
      expect(first.code, first.stderr).toBe(4);
      const runId = /^run (run_\w+)$/m.exec(first.stdout)![1]!;
      const listed = JSON.parse((await runCli(['runs', '--json'], { cwd: dir })).stdout) as { runs: { tokens: number; waiting_for: { id: string }[] }[] };
      const spentBefore = listed.runs[0]!.tokens;
      expect(spentBefore).toBeGreaterThan(0);
      const approved = await runCli(['approve', runId, '--call', listed.runs[0]!.waiting_for[0]!.id], { cwd: dir });
      expect(approved.code, approved.stderr).toBe(0);
      const term = spawnCliInPty(['resume', runId], { cwd: dir, columns: 80 });
      expect(await term.exited, term.screen()).toBe(0);
      const total = (JSON.parse((await runCli(['runs', '--json'], { cwd: dir })).stdout) as { runs: { tokens: number }[] }).runs[0]!.tokens;
      const headers = viewRows(term.screen()).filter((r) => r.startsWith('squadron · '));
      const shown = headers.map((h) => /· ([\d.]+k?) tokens/.exec(h)![1]!);
      // The first header already holds what the first process spent; the last, the run's total.
      expect(shown[0]).toBe(tokenText(spentBefore));
      expect(shown.at(-1)).toBe(tokenText(total));
    });
  });
});

/** As the live view writes a token count. */
function tokenText(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}
