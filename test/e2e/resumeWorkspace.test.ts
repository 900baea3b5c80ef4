// End-to-end: a run records which folder its workspace is, and `resume` checks it. A run whose first
// task wrote notes.txt is killed (SIGKILL) while its second task runs; its workspace is then replaced
// by another folder, then deleted. Each plain resume is refused with a clear message and exit 2,
// nothing written; `--accept-new-workspace` continues knowingly in a new empty folder, which is
// recorded so the next resume checks that one.

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import type { FakeReply, FakeRequest } from '../support/fakeTypes.js';
import { callAgent, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

vi.setConfig({ testTimeout: 300_000 });
afterAll(removeProjects);

function eventCount(dir: string): number {
  const db = openRunDb(dir);
  try {
    return db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('resume over a workspace that is gone or replaced', () => {
  it('refuses with a clear message and exit 2, and --accept-new-workspace continues knowingly', async () => {
    const turns = turnScript({
      'commander of task "one"': [callAgent('worker', 'Write notes.txt.'), taskComplete('Notes written.')],
      'worker agent of task "one"': [toolCall('builtins_files_write', { path: 'notes.txt', content: 'notes' }), { text: 'Wrote notes.txt.' }],
      'commander of task "two"': [callAgent('worker', 'Check notes.txt.'), taskComplete('Checked.')],
      'worker agent of task "two"': [{ text: 'Checked.' }],
    });
    let child: ChildProcess | undefined;
    let killed = false;
    const server = await startFakeModelServer({
      respond: (request: FakeRequest): FakeReply => {
        if (!killed && request.canonical.system.includes('commander of task "two"')) {
          killed = true;
          child?.kill('SIGKILL');
          return { drop: 'before-response' };
        }
        return turns.respond(request);
      },
    });
    const tmp = tempDir('squadron-ws-');
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "one" {
    objective = "Write notes.txt."
    tools     = [builtins.files.write]
  }
  task "two" {
    depends_on = [tasks.one]
    objective  = "Check notes.txt."
    tools      = [builtins.files.read]
  }
}
`,
      });
      const ws = join(tmp, 'ws');
      const first = await runCli(['run', dir, '--workspace', ws], { cwd: dir, onSpawn: (c) => (child = c) });
      expect(first.signal).toBe('SIGKILL');
      expect(readdirSync(ws)).toEqual(['notes.txt']);
      const runId = /run (run_[a-z0-9]+)/.exec(first.stdout)?.[1];
      expect(runId).toBeDefined();
      const events = eventCount(dir);

      // Replaced: another folder at the same path (a restore, a re-created folder).
      rmSync(ws, { recursive: true });
      mkdirSync(ws);
      writeFileSync(join(ws, 'notes.txt'), 'someone else’s notes');
      const replaced = await runCli(['resume', runId!, '--json'], { cwd: dir });
      expect(replaced.code).toBe(2);
      expect(replaced.stderr).toContain(`error: the workspace of run ${runId} was replaced: ${ws} is not the folder the run worked in`);
      expect(replaced.stderr).toContain('--accept-new-workspace');
      expect(JSON.parse(replaced.stdout)).toMatchObject({ error_code: 'run_refused' });

      // Gone.
      rmSync(ws, { recursive: true });
      const gone = await runCli(['resume', runId!], { cwd: dir });
      expect(gone.code).toBe(2);
      expect(gone.stderr).toContain(`error: the workspace of run ${runId} is gone: ${ws} does not exist (deleted or moved); restore it, or resume with --accept-new-workspace to continue the run in a new empty one`);
      expect(existsSync(ws)).toBe(false);
      expect(eventCount(dir)).toBe(events);

      // Accepted knowingly: a new empty folder, recorded for later resumes.
      const accepted = await runCli(['resume', runId!, '--accept-new-workspace'], { cwd: dir });
      expect(turns.problems).toEqual([]);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stderr).toContain(`note: run ${runId} continues in a new empty workspace at ${ws} (--accept-new-workspace)`);
      expect(readdirSync(ws)).toEqual([]);
      const again = await runCli(['resume', runId!], { cwd: dir });
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await server.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
