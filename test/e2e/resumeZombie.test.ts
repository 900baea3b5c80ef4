// A runner killed while its parent does not reap it stays a zombie: signal 0 still finds its pid.
// `resume` must treat it as dead at once (not wait for its heartbeat to go stale, 15 s), and `runs`
// must show its run as interrupted. Linux: the zombie is seen in /proc/<pid>/stat.

import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, fakeModelBlock, openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { taskComplete, turnScript } from '../support/turnScript.js';
import { procState } from '../support/procState.js';

afterAll(removeProjects);


/** Polls for a state the kernel reaches soon after a signal; the bound is generous, not a timing. */
async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(process.platform === 'linux')('resume after the runner became a zombie', () => {
  it('takes the run over at once and finishes it; runs shows it interrupted meanwhile', async () => {
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    let first = true;
    const script = turnScript({ 'commander of task "only"': [taskComplete('done')] });
    const server = await startFakeModelServer({
      respond: async (req) => {
        if (first) {
          first = false; // the runner's first model call stays in flight until it is killed
          arrived();
          await held;
        }
        return script.respond(req);
      },
    });
    let parent: ChildProcess | undefined;
    try {
      const dir = writeProject({
        'mission.hcl': `${fakeModelBlock(server)}mission "m" {\n  commander { model = ${ANTHROPIC_MODEL} }\n  task "only" {\n    objective = "finish"\n    tools     = [builtins.utils.current_time]\n  }\n}\n`,
      });
      // `exec sleep` turns the shell into a parent that never waits for its child (the runner).
      parent = spawn('/bin/sh', ['-c', `"${process.execPath}" "${CLI}" run . & exec sleep 600`], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: 'ignore',
      });
      await firstArrived;
      const lease = await until(() => {
        const db = openRunDb(dir);
        try {
          return db.prepare('SELECT run_id AS runId, pid FROM leases').get() as { runId: string; pid: number } | undefined;
        } finally {
          db.close();
        }
      }, 'the runner to hold its lease');
      process.kill(lease.pid, 'SIGKILL');
      await until(() => (procState(lease.pid) === 'Z' ? true : undefined), 'the runner to become a zombie');

      const runs = await runCli(['runs', '--json'], { cwd: dir });
      expect(runs.code, runs.stderr).toBe(0);
      expect((JSON.parse(runs.stdout) as { runs: { id: string; status: string }[] }).runs).toEqual([expect.objectContaining({ id: lease.runId, status: 'interrupted' })]);

      const resumed = await runCli(['resume', lease.runId, '--json'], { cwd: dir });
      expect(resumed.stderr).not.toContain('is being executed by another process');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((JSON.parse(resumed.stdout) as { status: string }).status).toBe('completed');
      expect(procState(lease.pid)).toBe('Z'); // still unreaped: it was the zombie rule, not a reaped pid
    } finally {
      parent?.kill('SIGKILL');
      releaseHeld();
      await server.close();
    }
  }, 120_000);
});
